-- try.lua: the TCC Try phase. Reserves stock for one or more reservations, each with one or more SKU lines; each
-- reservation is all or nothing on its own, and the reservations are decided one after the other, in order, each
-- seeing what the ones before it locked. (The service hands the script several concurrent reservations of one slot
-- at once to spend one EVALSHA on many of them; one reservation per call is the plain case.)
--
-- KEYS[k]   inv:{<sku>}, a stock hash (fields total, locked, sold, stocked, limit, segments), each at most once.
--           Every other key of that SKU is derived from it inside the script and shares its hash tag, so it
--           lives in the same cluster slot:
--             <KEYS[k]>:seg:<s>                 segment s (fields total, locked)
--             <KEYS[k]>:tx:<xid>:<reservation>  fence record of this reservation on this SKU
--             <KEYS[k]>:buyer:<user>            units the user holds (tried or confirmed, not cancelled)
--             <KEYS[k]>:open                    set of the fence keys of open (TRIED) reservations
-- ARGV[1]   now, in milliseconds since the epoch (the caller's clock; recorded as tried_at)
-- then, for each reservation, in order:
--           xid (global transaction id), reservation id (the caller's idempotency key, e.g. the order id),
--           branch id, user id, the number of lines n, and n pairs (k, quantity): the index in KEYS of the line's
--           stock key and a positive integer. The caller merges lines of the same SKU: a key appears at most once
--           per reservation.
--
-- Reply: four integers {code, line, a, b} per reservation, in the order given; line is the 1-based index of the
-- reservation's line that decided (0: the whole reservation).
--   0 RESERVED            every line without a record is now locked
--   1 ALREADY_RESERVED    every line already has a TRIED or CONFIRMED record: a replay, nothing changed
--   2 INSUFFICIENT_STOCK  a = units available on the SKU
--   3 LIMIT_EXCEEDED      a = the per-user limit, b = units the user already holds
--   4 CANCELLED_FIRST     a Cancel for this reservation came before this Try (anti-suspension)
--   5 UNKNOWN_SKU         the SKU has no stock hash in Redis (not created, or not loaded yet)
-- Codes 2..5 change nothing for that reservation.
--
-- Idempotency: the fence record is keyed by (xid, reservation id), not by branch, so a replay - including an
-- HTTP retry that arrives as a second branch, even in the same call - deducts nothing more. Every check of a
-- reservation runs before its first write.
-- Segments: the search starts at a segment chosen from (xid, reservation id) and falls through to the others,
-- splitting a line over several segments when no single one has enough; it reads segments only until the line
-- is covered (a refusal has read them all, so its "available" is the whole SKU's).

local now = ARGV[1]

local function start_segment(xid, reservation, count)
  if count <= 1 then
    return 0
  end
  -- the tails of the two ids vary most (transaction numbers, order numbers) and hashing 16 bytes is cheap
  local h = 0
  for _, b in ipairs({string.byte(xid .. reservation:sub(-8), -16, -1)}) do
    h = (h * 31 + b) % 2147483647
  end
  return h % count
end

-- Decides one reservation; lines is a list of {stock key, quantity}. Returns code, line, a, b.
local function try_one(xid, reservation, branch, user, lines)
  -- Phase 1: check every line and plan its allocation; nothing is written yet.
  local plans = {}
  for i, line in ipairs(lines) do
    local stock = line[1]
    local quantity = line[2]
    local fence = stock .. ':tx:' .. xid .. ':' .. reservation
    local state = redis.call('HGET', fence, 'state')
    if state == 'CANCELLED' then
      return 4, i, 0, 0
    end
    if not state then
      local sku = redis.call('HMGET', stock, 'limit', 'segments', 'locked', 'sold')
      if not sku[2] then
        return 5, i, 0, 0
      end
      local limit = tonumber(sku[1] or '0')
      local count = tonumber(sku[2])
      local first = start_segment(xid, reservation, count)
      local left = quantity
      local available = 0
      local alloc = {}
      for j = 0, count - 1 do
        local s = (first + j) % count
        local seg = redis.call('HMGET', stock .. ':seg:' .. s, 'total', 'locked')
        local free = tonumber(seg[1] or '0') - tonumber(seg[2] or '0')
        if free > 0 then
          available = available + free
          local take = math.min(free, left)
          alloc[#alloc + 1] = {s, take}
          left = left - take
          if left == 0 then
            -- enough: the segments not read yet matter only to a refusal's "available"
            break
          end
        end
      end
      if left > 0 then
        return 2, i, available, 0
      end
      local buyer = stock .. ':buyer:' .. user
      if limit > 0 then
        local held = tonumber(redis.call('GET', buyer) or '0')
        if held + quantity > limit then
          return 3, i, limit, held
        end
      end
      plans[#plans + 1] = {stock = stock, fence = fence, buyer = buyer, quantity = quantity, alloc = alloc,
        locked = tonumber(sku[3]), sold = tonumber(sku[4])}
    end
  end

  if #plans == 0 then
    return 1, 0, 0, 0
  end

  -- Phase 2: apply every planned line. (A stock key appears once per reservation, so the values read in phase 1
  -- are current.)
  for _, p in ipairs(plans) do
    local parts = {}
    for _, a in ipairs(p.alloc) do
      redis.call('HINCRBY', p.stock .. ':seg:' .. a[1], 'locked', a[2])
      parts[#parts + 1] = a[1] .. ':' .. a[2]
    end
    redis.call('HSET', p.stock, 'locked', p.locked + p.quantity, 'sold', p.sold + p.quantity)
    redis.call('INCRBY', p.buyer, p.quantity)
    redis.call('SADD', p.stock .. ':open', p.fence)
    redis.call('HSET', p.fence, 'state', 'TRIED', 'quantity', p.quantity, 'alloc', table.concat(parts, ','),
      'branch', branch, 'user', user, 'tried_at', now)
  end
  return 0, 0, 0, 0
end

local reply = {}
local at = 2
while at <= #ARGV do
  local xid, reservation, branch, user = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  local n = tonumber(ARGV[at + 4])
  local lines = {}
  for i = 1, n do
    local k = tonumber(ARGV[at + 3 + 2 * i])
    lines[i] = {KEYS[k], tonumber(ARGV[at + 4 + 2 * i])}
  end
  at = at + 5 + 2 * n
  local code, line, a, b = try_one(xid, reservation, branch, user, lines)
  reply[#reply + 1] = code
  reply[#reply + 1] = line
  reply[#reply + 1] = a
  reply[#reply + 1] = b
end
return reply
