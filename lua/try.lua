-- try.lua: the TCC Try phase. Reserves stock for one or more SKU lines of one reservation, all or nothing.
--
-- KEYS[i]   inv:{<sku>}, the stock hash of line i (fields total, locked, sold, stocked, limit, segments).
--           Every other key of that SKU is derived from it inside the script and shares its hash tag, so it
--           lives in the same cluster slot:
--             <KEYS[i]>:seg:<s>                 segment s (fields total, locked)
--             <KEYS[i]>:tx:<xid>:<reservation>  fence record of this reservation on this SKU
--             <KEYS[i]>:buyer:<user>            units the user holds (tried or confirmed, not cancelled)
--             <KEYS[i]>:open                    set of the fence keys of open (TRIED) reservations
--           The caller merges lines of the same SKU: a stock key appears at most once.
-- ARGV[1]   xid (global transaction id)
-- ARGV[2]   reservation id: the caller's idempotency key (e.g. the order id)
-- ARGV[3]   branch id
-- ARGV[4]   user id
-- ARGV[5]   now, in milliseconds since the epoch (the caller's clock; recorded as tried_at)
-- ARGV[5+i] quantity of line i, a positive integer
--
-- Reply {code, line, a, b}; line is the 1-based index of the line that decided (0: the whole reservation).
--   0 RESERVED            every line without a record is now locked
--   1 ALREADY_RESERVED    every line already has a TRIED or CONFIRMED record: a replay, nothing changed
--   2 INSUFFICIENT_STOCK  a = units available on the SKU
--   3 LIMIT_EXCEEDED      a = the per-user limit, b = units the user already holds
--   4 CANCELLED_FIRST     a Cancel for this reservation came before this Try (anti-suspension)
--   5 UNKNOWN_SKU         the SKU has no stock hash in Redis (not created, or not loaded yet)
-- Codes 2..5 change nothing.
--
-- Idempotency: the fence record is keyed by (xid, reservation id), not by branch, so a replay - including an
-- HTTP retry that arrives as a second branch - deducts nothing more. Every check runs before the first write.
-- Segments: the search starts at a segment chosen from (xid, reservation id) and falls through to the others,
-- splitting a line over several segments when no single one has enough; it reads segments only until the line
-- is covered (a refusal has read them all, so its "available" is the whole SKU's).

local xid = ARGV[1]
local reservation = ARGV[2]
local branch = ARGV[3]
local user = ARGV[4]
local now = ARGV[5]

local function start_segment(count)
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

-- Phase 1: check every line and plan its allocation; nothing is written yet.
local plans = {}
local pending = 0
for i = 1, #KEYS do
  local stock = KEYS[i]
  local quantity = tonumber(ARGV[5 + i])
  local fence = stock .. ':tx:' .. xid .. ':' .. reservation
  local state = redis.call('HGET', fence, 'state')
  if state == 'CANCELLED' then
    return {4, i, 0, 0}
  end
  if not state then
    local sku = redis.call('HMGET', stock, 'limit', 'segments', 'locked', 'sold')
    if not sku[2] then
      return {5, i, 0, 0}
    end
    local limit = tonumber(sku[1] or '0')
    local count = tonumber(sku[2])
    local first = start_segment(count)
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
      return {2, i, available, 0}
    end
    local buyer = stock .. ':buyer:' .. user
    if limit > 0 then
      local held = tonumber(redis.call('GET', buyer) or '0')
      if held + quantity > limit then
        return {3, i, limit, held}
      end
    end
    plans[#plans + 1] = {stock = stock, fence = fence, buyer = buyer, quantity = quantity, alloc = alloc,
      locked = tonumber(sku[3]), sold = tonumber(sku[4])}
    pending = pending + 1
  end
end

if pending == 0 then
  return {1, 0, 0, 0}
end

-- Phase 2: apply every planned line. (A stock key appears once, so the values read in phase 1 are current.)
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
return {0, 0, 0, 0}
