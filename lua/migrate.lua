-- migrate.lua: moves one SKU's Redis stock from the first release's fields to the stock vocabulary that both
-- stores share (docs/design.md, "Stock model"). Safe to run twice, and on a SKU that never had the old fields.
--
--   old (first release)                              new
--   SKU  total = units on hand (available + locked)  available = total - locked
--        locked = units held by open Tries            reserved  = locked
--        sold = units tried or confirmed              sold      = sold - locked   (confirmed only)
--        stocked                                      stocked   (unchanged: available + reserved + sold)
--   seg  total, locked                                available = total - locked, reserved = locked
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments derive from it, see try.lua)
--
-- Reply {code, available, reserved, sold}, the values now in Redis
--   0 MIGRATED         the old fields were replaced by the new ones, SKU and every segment
--   1 ALREADY_CURRENT  the SKU already uses the new fields: nothing changed
--   2 UNKNOWN_SKU      no stock hash: nothing changed
local stock = KEYS[1]
local sku = redis.call('HMGET', stock, 'segments', 'seg_span', 'total', 'locked', 'sold', 'available', 'reserved')
if not sku[1] then
  return {2, 0, 0, 0}
end
if not sku[3] then
  return {1, tonumber(sku[6] or '0'), tonumber(sku[7] or '0'), tonumber(sku[5] or '0')}
end
local span = tonumber(sku[2] or sku[1])
for s = 0, span - 1 do
  local key = stock .. ':seg:' .. s
  local seg = redis.call('HMGET', key, 'total', 'locked')
  if seg[1] or seg[2] then
    local locked = tonumber(seg[2] or '0')
    redis.call('HSET', key, 'available', tonumber(seg[1] or '0') - locked, 'reserved', locked)
    redis.call('HDEL', key, 'total', 'locked')
  end
end
local locked = tonumber(sku[4] or '0')
local available = tonumber(sku[3]) - locked
local sold = tonumber(sku[5] or '0') - locked
redis.call('HSET', stock, 'available', available, 'reserved', locked, 'sold', sold)
redis.call('HDEL', stock, 'total', 'locked')
return {0, available, locked, sold}
