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
local MIGRATED, ALREADY_CURRENT, UNKNOWN_SKU = 0, 1, 2

-- From prelude.lua (the loader puts it before this script): fields, segment_keys, touch_keys.

local stock = KEYS[1]
local sku = fields(stock, 'segments', 'seg_span', 'total', 'locked', 'sold', 'available', 'reserved')
if not sku.segments then
  return {UNKNOWN_SKU, 0, 0, 0}
end
if not sku.total then
  return {ALREADY_CURRENT, tonumber(sku.available or '0'), tonumber(sku.reserved or '0'), tonumber(sku.sold or '0')}
end
local span = tonumber(sku.seg_span or sku.segments)
-- every segment is touched before the first write (see touch_keys in the prelude)
touch_keys(segment_keys(stock, span))
for s = 0, span - 1 do
  local key = stock .. ':seg:' .. s
  local seg = fields(key, 'total', 'locked')
  if seg.total or seg.locked then
    local locked = tonumber(seg.locked or '0')
    redis.call('HSET', key, 'available', tonumber(seg.total or '0') - locked, 'reserved', locked)
    redis.call('HDEL', key, 'total', 'locked')
  end
end
local locked = tonumber(sku.locked or '0')
local available = tonumber(sku.total) - locked
local sold = tonumber(sku.sold or '0') - locked
redis.call('HSET', stock, 'available', available, 'reserved', locked, 'sold', sold)
redis.call('HDEL', stock, 'total', 'locked')
return {MIGRATED, available, locked, sold}
