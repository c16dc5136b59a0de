-- try.lua: the TCC Try phase. Reserves stock for one or more reservations, each with one or more SKU lines; each
-- reservation is all or nothing on its own, and the reservations are decided one after the other, in order, each
-- seeing what the ones before it reserved. (The service hands the script several concurrent reservations of one slot
-- at once to spend one EVALSHA on many of them; one reservation per call is the plain case.)
--
-- KEYS[k]   inv:{<sku>}, a stock hash (fields stocked, available, reserved, sold, limit, segments; always
--           available + reserved + sold == stocked), each at most once.
--           Every other key of that SKU is derived from it inside the script and shares its hash tag, so it
--           lives in the same cluster slot:
--             <KEYS[k]>:seg:<s>                 segment s (fields available, reserved)
--             <KEYS[k]>:tx:<xid>:<reservation>  fence record of this reservation on this SKU
--             <KEYS[k]>:buyer:<user>            units the user holds (tried or confirmed, not cancelled)
--             <KEYS[k]>:open                    set of the fence keys of open (TRIED) reservations
--             <KEYS[k]>:events                  stream of the SKU's stock events (see "Events" below)
-- ARGV      for each reservation, in order:
--           xid (global transaction id), reservation id (the caller's idempotency key, e.g. the order id),
--           branch id, user id, the number of lines n, and n pairs (k, quantity): the index in KEYS of the line's
--           stock key and a positive integer. The caller merges lines of the same SKU: a key appears at most once
--           per reservation.
--
-- Reply: four integers {code, line, a, b} per reservation, in the order given; line is the 1-based index of the
-- reservation's line that decided (0: the whole reservation).
--   0 RESERVED            every line without a record is now reserved (available -= q, reserved += q)
--   1 ALREADY_RESERVED    every line already has a TRIED or CONFIRMED record, or one saying the MySQL store holds
--                         the reservation (state MYSQL, see mirror.lua; not a booking, see 8): a replay, nothing
--                         changed
--   2 INSUFFICIENT_STOCK  a = units available on the SKU, b = units on their way into Redis from the allotment (a
--                         handover to Redis between its MySQL step and its Redis step, see moving.lua): with them
--                         the line may fit in a moment, and the service answers "not now" instead
--   3 PURCHASE_LIMIT_EXCEEDED  a = the per-user limit, b = units the user already holds (in either store: Redis
--                              counts the MySQL store's units too, see mirror.lua). Checked before the stock: a
--                              buyer at the limit gets this answer even when the SKU is short
--   4 RESERVATION_CANCELLED    a Cancel for this reservation came before this Try (anti-suspension), or the
--                              MySQL store cancelled it (a CANCELLED record written by mirror.lua)
--   5 UNKNOWN_SKU         the SKU has no stock hash in Redis (not created, or not loaded yet)
--   6 STALE_SKU           the SKU's stock was built on another Redis process than this one (its epoch field is not
--                         this server's run id): this server restarted or a replica took over since, and may have
--                         lost acknowledged writes. It sells nothing until the service rebuilds it from the durable
--                         record (rebuild.lua).
--   7 SALE_CLOSED         the SKU's sale is closed (field closed of its stock hash, see close.lua): it sells nothing
--                         any more, whatever it has left (decided before STALE_SKU: a closed SKU stays closed)
--   8 BOOKED              the line has a booking (book.lua: state MYSQL, field booked) for a Try of the MySQL store
--                         whose outcome Redis does not know yet: an earlier attempt of this reservation, under way
--                         or cut short. Not a replay Redis can vouch for: the service asks the MySQL store, whose
--                         ledger rows answer it
-- Codes 2..8 change nothing for that reservation.
-- A refused Try: the service records the refusal afterwards on every line of the reservation (a REFUSED record,
-- cancel.lua), so that a Confirm of it takes nothing; a replay of the Try meets that record and gets the same
-- refusal (its code, a and b, on the line that decided).
--
-- Idempotency: the fence record is keyed by (xid, reservation id), not by branch, so a replay - including an
-- HTTP retry that arrives as a second branch, even in the same call - deducts nothing more.
-- Writes: nothing is written until every reservation of the call is decided (stock, segments and buyer counts are
-- kept in Lua tables meanwhile), so an error while deciding leaves Redis as it was. The writes then go in the order
-- that keeps a failure on the safe side: stock first (units reserved without a fence record are reported by the
-- reconciler), fence records last (a fence record without its units would let Cancel free units never reserved).
-- Events: the reserved lines append their TRIED events to their SKUs' streams in this same call, one stream entry
-- per SKU and call (fields phase, at, events: see append_event), so an event is exactly as durable as the
-- reservation. The service's forwarder sends them to RocketMQ and deletes the entry then; a stream holding
-- EVENTS_KEPT unsent entries drops its oldest.
-- Segments: the search starts at a segment chosen from (xid, reservation id) and falls through to the others,
-- splitting a line over several segments when no single one has enough; it reads segments only until the line
-- is covered (a refusal has read them all, so its "available" is the whole SKU's).

-- Reply codes, as the header lists them.
local RESERVED, ALREADY_RESERVED, INSUFFICIENT_STOCK, PURCHASE_LIMIT_EXCEEDED, RESERVATION_CANCELLED, UNKNOWN_SKU,
  STALE_SKU, SALE_CLOSED, BOOKED = 0, 1, 2, 3, 4, 5, 6, 7, 8

-- From prelude.lua (the loader puts it before this script): append_event (and EVENTS_KEPT), server_id,
-- now_millis, fields, moving_in, touch_keys.

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

-- What this call has read and decided so far, written to Redis at the end.
local skus = {}      -- stock key -> false (unknown), 'closed', 'stale', or {limit, count, available, reserved, segs = {[s] = {available, reserved, taken}}, opened}
local sku_order = {} -- stock keys in the order first read
local buyers = {}    -- buyer key -> units added by this call
local buyer_order = {}
local fences = {}    -- fence key -> true, for the reservations this call reserved
local records = {}   -- fence records to write: {key, quantity, alloc, branch, user}, by name

local this_server -- server_id(), read once per call and only when a SKU is read
local function sku_state(stock)
  local st = skus[stock]
  if st == nil then
    local h = fields(stock, 'limit', 'segments', 'available', 'reserved', 'epoch', 'closed')
    this_server = this_server or server_id()
    if not h.segments then
      st = false
    elseif h.closed then
      st = 'closed'
    elseif h.epoch ~= this_server then
      st = 'stale'
    else
      st = {limit = tonumber(h.limit or '0'), count = tonumber(h.segments), available = tonumber(h.available),
        reserved = tonumber(h.reserved),
        segs = {}, seg_order = {}, opened = {}}
      sku_order[#sku_order + 1] = stock
    end
    skus[stock] = st
  end
  return st
end

local function segment(st, stock, s)
  local seg = st.segs[s]
  if seg == nil then
    local v = fields(stock .. ':seg:' .. s, 'available', 'reserved')
    seg = {available = tonumber(v.available or '0'), reserved = tonumber(v.reserved or '0'), taken = 0}
    st.segs[s] = seg
    st.seg_order[#st.seg_order + 1] = s
  end
  return seg
end

-- Decides one reservation; lines is a list of {stock = key, quantity = units}. Returns code, line, a, b.
local function try_one(xid, reservation, branch, user, lines)
  -- check every line and plan its allocation; nothing is taken yet
  local plans = {}
  for i, line in ipairs(lines) do
    local stock = line.stock
    local quantity = line.quantity
    local fence = stock .. ':tx:' .. xid .. ':' .. reservation
    local state = fences[fence] and 'TRIED' or redis.call('HGET', fence, 'state')
    if state == 'CANCELLED' then
      return RESERVATION_CANCELLED, i, 0, 0
    end
    if state == 'REFUSED' then
      local r = fields(fence, 'refused_code', 'refused_a', 'refused_b', 'refused_key')
      local decided = i
      for j, other in ipairs(lines) do
        if other.stock == r.refused_key then
          decided = j
        end
      end
      return tonumber(r.refused_code), decided, tonumber(r.refused_a or '0'), tonumber(r.refused_b or '0')
    end
    if state == 'MYSQL' and redis.call('HEXISTS', fence, 'booked') == 1 then
      return BOOKED, i, 0, 0
    end
    if not state then
      local st = sku_state(stock)
      if not st then
        return UNKNOWN_SKU, i, 0, 0
      end
      if st == 'closed' then
        return SALE_CLOSED, i, 0, 0
      end
      if st == 'stale' then
        return STALE_SKU, i, 0, 0
      end
      -- the buyer's limit first: a buyer at the limit is refused for it here, whatever the stock, so the Try never
      -- falls through to the MySQL store's allotment on a refusal for want of stock (docs/design.md, "One buyer
      -- count")
      local buyer = stock .. ':buyer:' .. user
      if st.limit > 0 then
        local held = tonumber(redis.call('GET', buyer) or '0') + (buyers[buyer] or 0)
        if held + quantity > st.limit then
          return PURCHASE_LIMIT_EXCEEDED, i, st.limit, held
        end
      end
      local first = start_segment(xid, reservation, st.count)
      local left = quantity
      local available = 0
      local alloc = {}
      for j = 0, st.count - 1 do
        local s = (first + j) % st.count
        local seg = segment(st, stock, s)
        local free = seg.available
        if free > 0 then
          available = available + free
          local take = math.min(free, left)
          alloc[#alloc + 1] = {seg = seg, index = s, take = take}
          left = left - take
          if left == 0 then
            -- enough: the segments not read yet matter only to a refusal's "available"
            break
          end
        end
      end
      if left > 0 then
        return INSUFFICIENT_STOCK, i, available, moving_in(stock)
      end
      plans[#plans + 1] = {st = st, stock = stock, fence = fence, buyer = buyer, quantity = quantity, alloc = alloc}
    end
  end

  if #plans == 0 then
    return ALREADY_RESERVED, 0, 0, 0
  end

  -- take every planned line (a stock key appears once per reservation, so what phase one read is current)
  for _, p in ipairs(plans) do
    local parts = {}
    for _, a in ipairs(p.alloc) do
      a.seg.available = a.seg.available - a.take
      a.seg.reserved = a.seg.reserved + a.take
      a.seg.taken = a.seg.taken + a.take
      parts[#parts + 1] = a.index .. ':' .. a.take
    end
    p.st.available = p.st.available - p.quantity
    p.st.reserved = p.st.reserved + p.quantity
    if not buyers[p.buyer] then
      buyers[p.buyer] = 0
      buyer_order[#buyer_order + 1] = p.buyer
    end
    buyers[p.buyer] = buyers[p.buyer] + p.quantity
    fences[p.fence] = true
    p.st.opened[#p.st.opened + 1] = p.fence
    records[#records + 1] = {key = p.fence, stock = p.stock, xid = xid, reservation = reservation,
      quantity = p.quantity, alloc = table.concat(parts, ','), branch = branch, user = user}
  end
  return RESERVED, 0, 0, 0
end

local reply = {}
local at = 1
while at <= #ARGV do
  local xid, reservation, branch, user = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
  local n = tonumber(ARGV[at + 4])
  local lines = {}
  for i = 1, n do
    local k = tonumber(ARGV[at + 3 + 2 * i])
    lines[i] = {stock = KEYS[k], quantity = tonumber(ARGV[at + 4 + 2 * i])}
  end
  at = at + 5 + 2 * n
  local code, line, a, b = try_one(xid, reservation, branch, user, lines)
  reply[#reply + 1] = code
  reply[#reply + 1] = line
  reply[#reply + 1] = a
  reply[#reply + 1] = b
end

-- Before the first write, every key about to be written is touched (touch_keys): the decision read the stock
-- hashes, segments, records and buyer counts, but not the open sets and streams.
local touched = {}
for _, stock in ipairs(sku_order) do
  touched[#touched + 1] = stock .. ':open'
  touched[#touched + 1] = stock .. ':events'
end
for _, buyer in ipairs(buyer_order) do
  touched[#touched + 1] = buyer
end
for _, r in ipairs(records) do
  touched[#touched + 1] = r.key
end
touch_keys(touched)

-- Write what was decided: stock, then buyer counts, then fence records and the open set, then the events.
for _, stock in ipairs(sku_order) do
  local st = skus[stock]
  if #st.opened > 0 then
    redis.call('HSET', stock, 'available', st.available, 'reserved', st.reserved)
    for _, s in ipairs(st.seg_order) do
      local seg = st.segs[s]
      if seg.taken > 0 then
        redis.call('HSET', stock .. ':seg:' .. s, 'available', seg.available, 'reserved', seg.reserved)
      end
    end
  end
end
for _, buyer in ipairs(buyer_order) do
  redis.call('INCRBY', buyer, buyers[buyer])
end
local tried_at = #records > 0 and now_millis()
for _, r in ipairs(records) do
  redis.call('HSET', r.key, 'state', 'TRIED', 'quantity', r.quantity, 'alloc', r.alloc, 'branch', r.branch,
    'user', r.user, 'tried_at', tried_at)
end
for _, stock in ipairs(sku_order) do
  local opened = skus[stock].opened
  if #opened == 1 then
    redis.call('SADD', stock .. ':open', opened[1])
  else
    -- SADD takes many members; unpack in slices to stay far from Lua's stack limit
    for from = 1, #opened, 500 do
      redis.call('SADD', stock .. ':open', unpack(opened, from, math.min(from + 499, #opened)))
    end
  end
end
local events = {} -- stock key -> the TRIED events of this call on it
for _, r in ipairs(records) do
  local list = events[r.stock]
  if not list then
    list = {}
    events[r.stock] = list
  end
  list[#list + 1] = {r.xid, r.reservation, r.branch, r.quantity, r.user}
end
for _, stock in ipairs(sku_order) do
  if events[stock] then
    append_event(stock, 'TRIED', tried_at, events[stock])
  end
end
return reply
