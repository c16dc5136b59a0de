-- close.lua: closes a SKU's sale in Redis. From this call on, try.lua refuses every new Try of the SKU (SALE_CLOSED),
-- whatever stock it has left; the reservations already open still end as their transactions decide (Confirm and
-- Cancel go on as before). Closed is for good: nothing here or elsewhere opens a SKU again. The service closes
-- MySQL's row first (the MySQL store refuses the SKU from then on), then runs this; once nothing of the sale is left
-- to end, sweep.lua removes the SKU's keys (docs/design.md, "The end of a sale").
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (its open set derives from it, see try.lua)
--
-- Reply {code, reserved, open}: the units still reserved and the reservations still open in Redis
--   0 CLOSED       the stock hash is marked closed (now, or by an earlier call: a replay changes nothing)
--   1 UNKNOWN_SKU  the SKU has no stock hash in Redis (never loaded, or swept): nothing written

local CLOSED, UNKNOWN_SKU = 0, 1

local stock = KEYS[1]
-- read before the write: on a Cluster slot being migrated, a key out of reach fails the call before anything is
-- written (touch_keys in the prelude)
local open = redis.call('SCARD', stock .. ':open')
local reserved = redis.call('HGET', stock, 'reserved')
if not redis.call('HGET', stock, 'segments') then
  return {UNKNOWN_SKU, 0, 0}
end
redis.call('HSET', stock, 'closed', 1)
return {CLOSED, tonumber(reserved or '0'), open}
