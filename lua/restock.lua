-- restock.lua: adds units to a SKU's stock, once per operation id.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments derive from it, see try.lua)
-- ARGV[1]  units to add (> 0)
-- ARGV[2]  operation id: the caller's idempotency key for this restock
-- ARGV[3]  seconds to remember the operation id
--
-- Reply {code, stocked, available}, the values now in Redis
--   0 RESTOCKED        stocked += units and available += units (spread evenly over the active segments)
--   1 ALREADY_APPLIED  this operation id was applied before: nothing changed
--   2 UNKNOWN_SKU      the SKU has no stock in Redis: nothing changed
-- Idempotency: the operation id is recorded in <KEYS[1]>:op:<id> in the same script.

local RESTOCKED, ALREADY_APPLIED, UNKNOWN_SKU = 0, 1, 2

-- From prelude.lua (the loader puts it before this script): fields, share_of, segment_keys, touch_keys.

local stock = KEYS[1]
local units = tonumber(ARGV[1])
local marker = stock .. ':op:' .. ARGV[2]

local count = tonumber(redis.call('HGET', stock, 'segments') or '0')
if count == 0 then
  return {UNKNOWN_SKU, 0, 0}
end
if redis.call('EXISTS', marker) == 1 then
  local now = fields(stock, 'stocked', 'available')
  return {ALREADY_APPLIED, tonumber(now.stocked), tonumber(now.available)}
end

-- every segment is touched before the first write (see touch_keys in the prelude): the stock hash and the marker
-- were read above
touch_keys(segment_keys(stock, count))
for s = 0, count - 1 do
  local add = share_of(units, count, s)
  if add > 0 then
    redis.call('HINCRBY', stock .. ':seg:' .. s, 'available', add)
  end
end
local stocked = redis.call('HINCRBY', stock, 'stocked', units)
local available = redis.call('HINCRBY', stock, 'available', units)
redis.call('SET', marker, units, 'EX', tonumber(ARGV[3]))
return {RESTOCKED, stocked, available}
