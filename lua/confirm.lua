-- confirm.lua: the TCC Confirm phase for one SKU of one or more reservations. Driven by each fence record: the
-- quantity and the segments it touches are those the Try recorded. Only when there is no record (the Try never
-- reached Redis, or Redis lost it) does the caller's word count: the coordinator has committed, so the units are
-- sold. (The service hands the script the Confirms of one slot that arrive together, to spend one EVALSHA on many;
-- each is decided on its own, one after the other, exactly as separate calls in that order would be.)
--
-- KEYS[i]  inv:{<sku>}, the stock hash of the i-th Confirm's SKU (segments and the fence record are derived from
--          it, see try.lua); the same key may appear for several Confirms
-- ARGV[1]  seconds to keep the finished records (they must outlive any retry of these transactions)
-- ARGV     then, for the i-th Confirm, five values from ARGV[2 + 5 * (i - 1)]:
--            xid
--            reservation id
--            units of this SKU the reservation holds, as the branch's action context says (used without a record)
--            the buyer's user id (likewise)
--            1: a missing record's units are taken (codes 6 and 7, an unrecorded confirm); 0: a missing record is
--            only reported (code 8), for the caller to find out first whether the MySQL store holds the
--            reservation (its Try ran there)
--
-- Reply {code, quantity} per Confirm, in the order given
--   0 APPLIED          the TRIED record is now CONFIRMED: reserved -= q (SKU and segments), sold += q (SKU)
--   1 ALREADY_APPLIED  the record is CONFIRMED already: a replay, nothing changed
--   2 NO_RECORD        no record and no stock hash for the SKU (Redis lost it altogether), and the fifth value is 0:
--                      nothing changed (the caller asks the MySQL store, then calls again with 1: code 6)
--   3 ENDED_OTHERWISE  the reservation was cancelled; a Confirm cannot undo that; nothing changed
--   4 HELD_IN_MYSQL    the record says the MySQL store holds the reservation (state MYSQL, written by mirror.lua):
--                      nothing changed; the Confirm is the MySQL store's
--   5 FAILED           this Confirm raised an error (a corrupt value, a key of the wrong type): logged in Redis's log;
--                      the writes it made before the error stay, as with any script error; the other Confirms of the
--                      call are decided as usual. The caller fails this one, and the coordinator retries it.
--   6 TAKEN_UNRECORDED no record: q units were taken from available stock (active segments in order) and sold,
--                      the buyer's count raised, and a CONFIRMED record (unrecorded = 1) written, so a replay
--                      finds ALREADY_APPLIED
--   7 OVERSOLD         no record and fewer than q units available: the units were sold to someone else. Nothing
--                      is taken; a CONFIRMED record (quantity 0, oversold = q) is written, and <stock key>:oversold
--                      gets the fence key -> q, which the reconciler reports until an operator settles it
--                      (On a stale SKU, one built on another Redis process, see try.lua, a missing record is what the
--                      lost writes explain: the CONFIRMED record, unrecorded = 1, is written and TAKEN_UNRECORDED answered,
--                      but no counter moves: they are about to be rebuilt from MySQL, which counts this sale. Likewise
--                      on a SKU Redis lost altogether, which has no counters: its rebuild sets them from MySQL. The
--                      caller records the sale in MySQL before it answers the coordinator.)
--   8 UNRECORDED       no record, the SKU exists, and the fifth value is 0: nothing changed
--   9 REFUSED          the record says the Try was refused (cancel.lua wrote it when the service refused the Try): the
--                      coordinator committed a transaction whose Try this service refused, which no honest caller
--                      does. Nothing is taken; the record keeps when that Confirm came (confirmed_at). The caller
--                      answers the coordinator with success (a retry could change nothing) and raises a finding.
-- Events: APPLIED and TAKEN_UNRECORDED append CONFIRMED events to the SKU's stream in this same call (see try.lua),
-- one entry per SKU and call, written after every Confirm of the call is decided.
-- (Codes 0-5 are cancel.lua's too: one decoder, PhaseOutcome, reads both.)
-- Idempotency: only a TRIED record moves stock, and it moves exactly once; the records written without one make
-- every replay ALREADY_APPLIED.

-- Reply codes, as the header lists them.
local APPLIED, ALREADY_APPLIED, NO_RECORD, ENDED_OTHERWISE, HELD_IN_MYSQL, FAILED, TAKEN_UNRECORDED, OVERSOLD, UNRECORDED,
  REFUSED = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9

-- From prelude.lua (the loader puts it before this script): each_phase (which touches every key first, see
-- touch_keys), server_id, now_millis, fields.

local retention = tonumber(ARGV[1])
local millis = now_millis()
local epoch -- this server's run id, read once when a Confirm without a record needs it

-- One Confirm: {code, quantity}; confirmed_event(stock, event) records its CONFIRMED event.
local function confirm(stock, xid, reservation, asked, user, take_unrecorded, confirmed_event)
  local fence = stock .. ':tx:' .. xid .. ':' .. reservation
  local record = fields(fence, 'state', 'quantity', 'alloc', 'branch', 'user')
  local state = record.state
  local quantity = tonumber(record.quantity or '0')
  if not state then
    local sku = fields(stock, 'segments', 'available', 'epoch')
    if take_unrecorded ~= '1' then
      return {sku.segments and UNRECORDED or NO_RECORD, 0}
    end
    local units = tonumber(asked)
    epoch = epoch or server_id()
    if not sku.segments or sku.epoch ~= epoch then
      redis.call('INCRBY', stock .. ':buyer:' .. user, units)
      redis.call('HSET', fence, 'state', 'CONFIRMED', 'quantity', units, 'alloc', '', 'unrecorded', 1, 'user', user,
        'ended_at', millis)
      redis.call('EXPIRE', fence, retention)
      confirmed_event(stock, {xid, reservation, '', units, user})
      return {TAKEN_UNRECORDED, units}
    end
    if tonumber(sku.available) < units then
      redis.call('HSET', fence, 'state', 'CONFIRMED', 'quantity', 0, 'oversold', units, 'user', user,
        'ended_at', millis)
      redis.call('EXPIRE', fence, retention)
      redis.call('HSET', stock .. ':oversold', fence, units)
      return {OVERSOLD, units}
    end
    local left = units
    local parts = {}
    for s = 0, tonumber(sku.segments) - 1 do
      local seg = stock .. ':seg:' .. s
      local piece = math.min(tonumber(redis.call('HGET', seg, 'available') or '0'), left)
      if piece > 0 then
        redis.call('HINCRBY', seg, 'available', -piece)
        parts[#parts + 1] = s .. ':' .. piece
        left = left - piece
      end
      if left == 0 then
        break
      end
    end
    redis.call('HINCRBY', stock, 'available', -units)
    redis.call('HINCRBY', stock, 'sold', units)
    redis.call('INCRBY', stock .. ':buyer:' .. user, units)
    redis.call('HSET', fence, 'state', 'CONFIRMED', 'quantity', units, 'alloc', table.concat(parts, ','),
      'unrecorded', 1, 'user', user, 'ended_at', millis)
    redis.call('EXPIRE', fence, retention)
    confirmed_event(stock, {xid, reservation, '', units, user})
    return {TAKEN_UNRECORDED, units}
  end
  if state == 'CONFIRMED' then
    return {ALREADY_APPLIED, quantity}
  end
  if state == 'CANCELLED' then
    return {ENDED_OTHERWISE, quantity}
  end
  if state == 'MYSQL' then
    return {HELD_IN_MYSQL, quantity}
  end
  if state == 'REFUSED' then
    redis.call('HSETNX', fence, 'confirmed_at', millis)
    return {REFUSED, 0}
  end

  local count = tonumber(redis.call('HGET', stock, 'segments') or '1')
  for segment, piece in string.gmatch(record.alloc, '(%d+):(%d+)') do
    local seg = stock .. ':seg:' .. segment
    local reserved = redis.call('HINCRBY', seg, 'reserved', -tonumber(piece))
    if tonumber(segment) >= count and reserved <= 0 and tonumber(redis.call('HGET', seg, 'available') or '0') <= 0 then
      redis.call('DEL', seg) -- an emptied draining segment (see resegment.lua)
    end
  end
  redis.call('HINCRBY', stock, 'reserved', -quantity)
  redis.call('HINCRBY', stock, 'sold', quantity)
  redis.call('HSET', fence, 'state', 'CONFIRMED', 'ended_at', millis)
  redis.call('EXPIRE', fence, retention)
  redis.call('SREM', stock .. ':open', fence)
  confirmed_event(stock, {xid, reservation, record.branch or '', quantity, record.user or ''})
  return {APPLIED, quantity}
end

return each_phase('confirm.lua', 'CONFIRMED', 5, FAILED, millis, function(stock, a, record)
  return confirm(stock, ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], record)
end, 3)
