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

-- The handovers a rebuild settles (see handover.lua): ARGV[from] = their count n, ARGV[from + 1] = seconds to
-- remember them, then n pairs (operation id, units). Returns the list and the index after it.
local function handovers_at(from)
  local n = tonumber(ARGV[from])
  local list = {}
  for i = 1, n do
    list[i] = {ARGV[from + 2 * i], ARGV[from + 2 * i + 1]}
  end
  return list, tonumber(ARGV[from + 1]), from + 2 + 2 * n
end

-- Marks each handover as applied in Redis with its units, the rebuilt counters having accounted for it; a mark
-- already there stays as it is.
local function remember_handovers(stock, list, seconds)
  for _, h in ipairs(list) do
    redis.call('SET', stock .. ':handover:' .. h[1], h[2], 'NX', 'EX', seconds)
  end
end

-- Which Redis process this is: its run id, new at every start and on a replica promoted in a failover.
local function server_id()
  return string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
end

-- Segment s's part when units are spread evenly over count segments (the first ones take the remainder).
local function share_of(units, count, s)
  local share = math.floor(units / count)
  if s < units % count then
    return share + 1
  end
  return share
end

-- The named fields of a hash, by name (nil where absent).
local function fields(key, ...)
  local names = {...}
  local values = redis.call('HMGET', key, unpack(names))
  local named = {}
  for i, name in ipairs(names) do
    named[name] = values[i]
  end
  return named
end

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
for s = 0, count - 1 do
  redis.call('HSET', stock .. ':seg:' .. s, 'available', share_of(available, count, s), 'reserved', 0)
end
redis.call('HSET', stock, 'stocked', available + sold, 'available', available, 'reserved', 0, 'sold', sold,
  'limit', limit, 'segments', count, 'seg_span', count, 'epoch', server_id())
remember_handovers(stock, handovers, handovers_kept)
return {CREATED, available, 0, sold, count}
