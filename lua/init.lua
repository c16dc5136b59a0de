-- init.lua: creates a SKU's stock in Redis. Never overwrites live stock.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments derive from it, see try.lua)
-- ARGV[1]  available: units Redis may sell (>= 0)
-- ARGV[2]  sold: units already sold elsewhere, e.g. in MySQL when the SKU is loaded from there (>= 0)
-- ARGV[3]  per-user limit (0: no limit)
-- ARGV[4]  segment count (>= 1)
-- ARGV[5..] the handovers still PENDING in MySQL, which this rebuild settles (marked applied when it writes,
--           so that their Redis step changes nothing afterwards): their count n, seconds to remember them, then n
--           pairs (operation id, units: for one towards MySQL, those its counters leave out; towards Redis, those
--           its counters include)
--
-- Reply {code, available, reserved, sold, segments}, the values now in Redis
--   0 CREATED  the stock hash and its segments were written: stocked = available + sold, nothing reserved; the
--              available units are split evenly over the segments; epoch = this server's run id (see try.lua)
--   1 EXISTS   the SKU already has stock in Redis: nothing changed (restock or reload instead)
-- Idempotency: a replay finds EXISTS.
local CREATED, EXISTS = 0, 1

-- From prelude.lua (the loader puts it before this script):
--   server_id, fields, share_of, handovers_at, remember_handovers, segment_keys, handover_keys, touch_keys.

local stock = KEYS[1]
local available = tonumber(ARGV[1])
local sold = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local count = tonumber(ARGV[4])
local handovers, handovers_kept = handovers_at(5)
local current = fields(stock, 'available', 'reserved', 'sold', 'segments')
if current.segments then
  return {EXISTS, tonumber(current.available or '0'), tonumber(current.reserved or '0'),
    tonumber(current.sold or '0'), tonumber(current.segments)}
end
-- every key this call writes is touched before its first write (see touch_keys in the prelude)
touch_keys(handover_keys(stock, handovers, segment_keys(stock, count)))
for s = 0, count - 1 do
  redis.call('HSET', stock .. ':seg:' .. s, 'available', share_of(available, count, s), 'reserved', 0)
end
redis.call('HSET', stock, 'stocked', available + sold, 'available', available, 'reserved', 0, 'sold', sold,
  'limit', limit, 'segments', count, 'seg_span', count, 'epoch', server_id())
remember_handovers(stock, handovers, handovers_kept)
return {CREATED, available, 0, sold, count}
