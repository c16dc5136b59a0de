-- init.lua: creates a SKU's stock in Redis. Never overwrites live stock.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments derive from it, see try.lua)
-- ARGV[1]  available: units Redis may sell (>= 0)
-- ARGV[2]  sold: units already sold elsewhere, e.g. in MySQL when the SKU is loaded from there (>= 0)
-- ARGV[3]  per-user limit (0: no limit)
-- ARGV[4]  segment count (>= 1)
--
-- Reply {code, available, reserved, sold, segments}, the values now in Redis
--   0 CREATED  the stock hash and its segments were written: stocked = available + sold, nothing reserved; the
--              available units are split evenly over the segments
--   1 EXISTS   the SKU already has stock in Redis: nothing changed (restock or reload instead)
-- Idempotency: a replay finds EXISTS.
local stock = KEYS[1]
local available = tonumber(ARGV[1])
local sold = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local count = tonumber(ARGV[4])
local current = redis.call('HMGET', stock, 'available', 'reserved', 'sold', 'segments')
if current[4] then
  return {1, tonumber(current[1] or '0'), tonumber(current[2] or '0'), tonumber(current[3] or '0'),
    tonumber(current[4])}
end
local share = math.floor(available / count)
local extra = available % count
for s = 0, count - 1 do
  local units = share
  if s < extra then
    units = units + 1
  end
  redis.call('HSET', stock .. ':seg:' .. s, 'available', units, 'reserved', 0)
end
redis.call('HSET', stock, 'stocked', available + sold, 'available', available, 'reserved', 0, 'sold', sold,
  'limit', limit, 'segments', count, 'seg_span', count)
return {0, available, 0, sold, count}
