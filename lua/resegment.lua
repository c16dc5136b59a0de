-- resegment.lua: changes a SKU's segment count atomically.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments derive from it, see try.lua)
-- ARGV[1]  the new segment count (>= 1)
--
-- Reply {code, old count, new count, units moved}
--   0 RESEGMENTED  available units were gathered from every segment and spread evenly over the new ones
--   1 UNCHANGED    the SKU already has that many segments: nothing changed
--   2 UNKNOWN_SKU  the SKU has no stock in Redis: nothing changed
-- Only available units move. Units reserved by open reservations stay in the segment their fence record names:
-- a segment beyond the new count that still holds reserved units is kept (with nothing available) until those
-- reservations end, so every open reservation still confirms or cancels. The SKU's stocked, available, reserved
-- and sold do not change. Field seg_span remembers how many segment indexes may exist, active or draining.
-- Idempotency: a replay finds UNCHANGED.

local RESEGMENTED, UNCHANGED, UNKNOWN_SKU = 0, 1, 2

-- From prelude.lua (the loader puts it before this script): fields, share_of, segment_keys, touch_keys.

local stock = KEYS[1]
local target = tonumber(ARGV[1])

local sku = fields(stock, 'segments', 'seg_span')
if not sku.segments then
  return {UNKNOWN_SKU, 0, target, 0}
end
local count = tonumber(sku.segments)
local span = tonumber(sku.seg_span or sku.segments)
if count == target then
  return {UNCHANGED, count, count, 0}
end

-- Gather every available unit; keep only what is reserved where it is.
-- every segment either side of the change is touched before the first write (see touch_keys in the prelude)
touch_keys(segment_keys(stock, math.max(span, target)))
local pool = 0
local new_span = target
for s = 0, span - 1 do
  local key = stock .. ':seg:' .. s
  local seg = fields(key, 'available', 'reserved')
  local reserved = tonumber(seg.reserved or '0')
  pool = pool + tonumber(seg.available or '0')
  if s < target or reserved > 0 then
    redis.call('HSET', key, 'available', 0, 'reserved', reserved)
    if s + 1 > new_span then
      new_span = s + 1
    end
  else
    redis.call('DEL', key)
  end
end

for s = 0, target - 1 do
  redis.call('HINCRBY', stock .. ':seg:' .. s, 'available', share_of(pool, target, s))
end
redis.call('HSET', stock, 'segments', target, 'seg_span', new_span)
return {RESEGMENTED, count, target, pool}
