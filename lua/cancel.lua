-- cancel.lua: the TCC Cancel phase for one SKU of one or more reservations. Driven by each fence record only. (The
-- service hands the script the Cancels of one slot that arrive together, to spend one EVALSHA on many; each is
-- decided on its own, one after the other, exactly as separate calls in that order would be.)
--
-- KEYS[i]  inv:{<sku>}, the stock hash of the i-th Cancel's SKU (segments, fence record and buyer counter derive
--          from it, see try.lua); the same key may appear for several Cancels
-- ARGV[1]  seconds to keep the finished records or tombstones (they must outlive any retry of these transactions)
-- ARGV     then, for the i-th Cancel, eight values from ARGV[2 + 8 * (i - 1)]:
--            xid
--            reservation id
--            REFUSED when the Try of this reservation was refused (the service records its refusal on every line,
--            see StoreRouter), else empty: the record ends REFUSED instead of CANCELLED, a TRIED line (an earlier
--            slot group of the same refused Try) gives its units back as a Cancel would, and a line without a record
--            gets a REFUSED record. A Confirm that meets it takes nothing (confirm.lua, REFUSED); a Cancel ends there.
--            with REFUSED, three values and a key: the refusal as try.lua decided it (its code, a, b, and the stock
--            key of the line that decided), so that a replay of the refused Try gets the same answer (else empty)
--            with REFUSED, the branch id of the refused Try (else empty). A TRIED record of another branch is another
--            attempt of the same reservation in the same transaction (a caller that retried the Try), which
--            reserved: the refusal leaves it as it is (ENDED_OTHERWISE); the transaction's own phase ends it
--
-- Reply {code, quantity} per Cancel, in the order given
--   0 APPLIED          the TRIED record is now CANCELLED: reserved -= q and available += q (SKU and segments),
--                      and the user's purchase count is given back. Units released in a draining segment (one
--                      beyond the active count, see resegment.lua) move to an active segment.
--   1 ALREADY_APPLIED  the record is CANCELLED or REFUSED already (a replay, a tombstone, a refused Try): nothing
--                      changed
--   2 NO_RECORD        no record: the Try never ran here (an empty rollback); a CANCELLED tombstone now refuses
--                      a late Try
--   3 ENDED_OTHERWISE  the reservation was confirmed; a Cancel cannot undo that; nothing changed. With REFUSED:
--                      also a TRIED record of another branch (above), left as it is
--   4 HELD_IN_MYSQL    the record says the MySQL store holds the reservation (state MYSQL, written by mirror.lua):
--                      nothing changed; the Cancel is the MySQL store's
--   5 FAILED           this Cancel raised an error (a corrupt value, a key of the wrong type): logged in Redis's log;
--                      the writes it made before the error stay, as with any script error; the other Cancels of the
--                      call are decided as usual. The caller fails this one, and the coordinator retries it.
-- Events: APPLIED appends CANCELLED events to the SKU's stream in this same call (see try.lua), one entry per SKU
-- and call, written after every Cancel of the call is decided.
-- (The same names as confirm.lua's codes 0-5: one decoder, PhaseOutcome, reads both.)
-- Idempotency: only a TRIED record moves stock, and it moves exactly once.

-- Reply codes, as the header lists them.
local APPLIED, ALREADY_APPLIED, NO_RECORD, ENDED_OTHERWISE, HELD_IN_MYSQL, FAILED = 0, 1, 2, 3, 4, 5

-- From prelude.lua (the loader puts it before this script): each_phase (which touches every key first, see
-- touch_keys), now_millis, fields, release_reservation.

local retention = tonumber(ARGV[1])
local millis = now_millis()

-- One Cancel: {code, quantity}. refusal: nil, or {code, a, b, key} of the refused Try; cancelled_event(stock,
-- event) records its CANCELLED event.
local function cancel(stock, xid, reservation, refusal, refused_branch, cancelled_event)
  local fence = stock .. ':tx:' .. xid .. ':' .. reservation

  -- the fields that make a record REFUSED: the refusal, for a replay of the Try to be answered the same
  local function refused(...)
    redis.call('HSET', fence, 'state', 'REFUSED', 'refused_code', refusal[1], 'refused_a', refusal[2],
      'refused_b', refusal[3], 'refused_key', refusal[4], 'ended_at', millis, ...)
    redis.call('EXPIRE', fence, retention)
  end

  local record = fields(fence, 'state', 'quantity', 'alloc', 'branch', 'user')
  local state = record.state
  local quantity = tonumber(record.quantity or '0')
  if not state then
    if refusal then
      refused('quantity', 0)
    else
      redis.call('HSET', fence, 'state', 'CANCELLED', 'quantity', 0, 'tombstone', 1, 'ended_at', millis)
      redis.call('EXPIRE', fence, retention)
    end
    return {NO_RECORD, 0}
  end
  if state == 'CANCELLED' or state == 'REFUSED' then
    return {ALREADY_APPLIED, quantity}
  end
  if state == 'CONFIRMED' then
    return {ENDED_OTHERWISE, quantity}
  end
  if state == 'MYSQL' then
    return {HELD_IN_MYSQL, quantity}
  end
  if refusal and refused_branch ~= '' and (record.branch or '') ~= '' and record.branch ~= refused_branch then
    -- another attempt of this reservation reserved these units; the refusal of this one does not take them back
    return {ENDED_OTHERWISE, quantity}
  end

  release_reservation(stock, fence, record)
  if refusal then
    refused()
  else
    redis.call('HSET', fence, 'state', 'CANCELLED', 'ended_at', millis)
    redis.call('EXPIRE', fence, retention)
  end
  cancelled_event(stock, {xid, reservation, record.branch or '', quantity, record.user or ''})
  return {APPLIED, quantity}
end

return each_phase('cancel.lua', 'CANCELLED', 8, FAILED, millis, function(stock, a, record)
  local refusal = nil
  if ARGV[a + 2] == 'REFUSED' then
    refusal = {ARGV[a + 3], ARGV[a + 4], ARGV[a + 5], ARGV[a + 6]}
  end
  return cancel(stock, ARGV[a], ARGV[a + 1], refusal, ARGV[a + 7] or '', record)
end)
