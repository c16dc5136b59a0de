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

local stock = KEYS[1]
local target = tonumber(ARGV[1])

local sku = redis.call('HMGET', stock, 'segments', 'seg_span')
if not sku[1] then
  return {2, 0, target, 0}
end
local count = tonumber(sku[1])
local span = tonumber(sku[2] or sku[1])
if count == target then
  return {1, count, count, 0}
end

-- Gather every available unit; keep only what is reserved where it is.
local pool = 0
local new_span = target
for s = 0, span - 1 do
  local key = stock .. ':seg:' .. s
  local seg = redis.call('HMGET', key, 'available', 'reserved')
  local reserved = tonumber(seg[2] or '0')
  pool = pool + tonumber(seg[1] or '0')
  if s < target or reserved > 0 then
    redis.call('HSET', key, 'available', 0, 'reserved', reserved)
    if s + 1 > new_span then
      new_span = s + 1
    end
  else
    redis.call('DEL', key)
  end
end

local share = math.floor(pool / target)
local extra = pool % target
for s = 0, target - 1 do
  local add = share
  if s < extra then
    add = add + 1
  end
  redis.call('HINCRBY', stock .. ':seg:' .. s, 'available', add)
end
redis.call('HSET', stock, 'segments', target, 'seg_span', new_span)
return {0, count, target, pool}
