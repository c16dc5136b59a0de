-- cancel.lua: the TCC Cancel phase for one SKU of one reservation. Driven by the fence record only.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments, fence record and buyer counter derive from it, see try.lua)
-- ARGV[1]  xid
-- ARGV[2]  reservation id
-- ARGV[3]  seconds to keep the finished record or tombstone (it must outlive any retry of this transaction)
-- ARGV[4]  optional: REFUSED when the Try of this reservation was refused (the service records its refusal on every
--          line, see StockReservationAction): the record ends REFUSED instead of CANCELLED, a TRIED line (an earlier
--          slot group of the same refused Try) gives its units back as a Cancel would, and a line without a record
--          gets a REFUSED record. A Confirm that meets it takes nothing (confirm.lua, REFUSED); a Cancel ends there.
-- ARGV[5..8] with REFUSED: the refusal as try.lua decided it (its code, a, b, and the stock key of the line that
--          decided), so that a replay of the refused Try gets the same answer
--
-- Reply {code, quantity}
--   0 APPLIED          the TRIED record is now CANCELLED: reserved -= q and available += q (SKU and segments),
--                      and the user's purchase count is given back. Units released in a draining segment (one
--                      beyond the active count, see resegment.lua) move to an active segment.
--   1 ALREADY_APPLIED  the record is CANCELLED or REFUSED already (a replay, a tombstone, a refused Try): nothing
--                      changed
--   2 NO_RECORD        no record: the Try never ran here (an empty rollback); a CANCELLED tombstone now refuses
--                      a late Try
--   3 ENDED_OTHERWISE  the reservation was confirmed; a Cancel cannot undo that; nothing changed
--   4 HELD_IN_MYSQL    the record says the MySQL store holds the reservation (state MYSQL, written by mirror.lua):
--                      nothing changed; the Cancel is the MySQL store's
-- Events: APPLIED appends a CANCELLED event to the SKU's stream in this same call (see try.lua).
-- (The same five names as confirm.lua's first five: one decoder, PhaseOutcome, reads both.)
-- Idempotency: only a TRIED record moves stock, and it moves exactly once.

-- Reply codes, as the header lists them.
local APPLIED, ALREADY_APPLIED, NO_RECORD, ENDED_OTHERWISE, HELD_IN_MYSQL = 0, 1, 2, 3, 4

-- From prelude.lua (the loader puts it before this script): append_event, now_millis, fields, release_reservation.

local stock = KEYS[1]
local fence = stock .. ':tx:' .. ARGV[1] .. ':' .. ARGV[2]
local retention = tonumber(ARGV[3])

local refusing = ARGV[4] == 'REFUSED'

local millis = now_millis()

-- the fields that make a record REFUSED: the refusal, for a replay of the Try to be answered the same
local function refused(...)
  redis.call('HSET', fence, 'state', 'REFUSED', 'refused_code', ARGV[5], 'refused_a', ARGV[6], 'refused_b', ARGV[7],
    'refused_key', ARGV[8], 'ended_at', millis, ...)
  redis.call('EXPIRE', fence, retention)
end

local record = fields(fence, 'state', 'quantity', 'alloc', 'branch', 'user')
local state = record.state
local quantity = tonumber(record.quantity or '0')
if not state then
  if refusing then
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

release_reservation(stock, fence, record)
if refusing then
  refused()
else
  redis.call('HSET', fence, 'state', 'CANCELLED', 'ended_at', millis)
  redis.call('EXPIRE', fence, retention)
end
append_event(stock, 'CANCELLED', millis, {{ARGV[1], ARGV[2], record.branch or '', quantity, record.user or ''}})
return {APPLIED, quantity}
