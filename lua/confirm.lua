-- confirm.lua: the TCC Confirm phase for one SKU of one reservation. Driven by the fence record: the quantity
-- and the segments it touches are those the Try recorded. Only when there is no record (the Try never reached
-- Redis, or Redis lost it) does the caller's word count: the coordinator has committed, so the units are sold.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments and the fence record are derived from it, see try.lua)
-- ARGV[1]  xid
-- ARGV[2]  reservation id
-- ARGV[3]  seconds to keep the finished record (it must outlive any retry of this transaction)
-- ARGV[4]  units of this SKU the reservation holds, as the branch's action context says (used without a record)
-- ARGV[5]  the buyer's user id (likewise)
-- ARGV[6]  1: a missing record's units are taken (codes 5 and 6, an unrecorded confirm); 0: a missing record is only reported (code 7), for
--          the caller to find out first whether the MySQL store holds the reservation (its Try ran there)
--
-- Reply {code, quantity}
--   0 APPLIED          the TRIED record is now CONFIRMED: reserved -= q (SKU and segments), sold += q (SKU)
--   1 ALREADY_APPLIED  the record is CONFIRMED already: a replay, nothing changed
--   2 NO_RECORD        no record and no stock hash for the SKU: nothing changed (the reconciler reports the SKU)
--   3 ENDED_OTHERWISE  the reservation was cancelled; a Confirm cannot undo that; nothing changed
--   4 HELD_IN_MYSQL    the record says the MySQL store holds the reservation (state MYSQL, written by mirror.lua):
--                      nothing changed; the Confirm is the MySQL store's
--   5 TAKEN_UNRECORDED no record: q units were taken from available stock (active segments in order) and sold,
--                      the buyer's count raised, and a CONFIRMED record (unrecorded = 1) written, so a replay
--                      finds ALREADY_APPLIED
--   6 OVERSOLD         no record and fewer than q units available: the units were sold to someone else. Nothing
--                      is taken; a CONFIRMED record (quantity 0, oversold = q) is written, and <KEYS[1]>:oversold
--                      gets the fence key -> q, which the reconciler reports until an operator settles it
--                      (On a stale SKU, one built on another Redis process, see try.lua, a missing record is what the
--                      lost writes explain: the CONFIRMED record, unrecorded = 1, is written and TAKEN_UNRECORDED answered,
--                      but no counter moves: they are about to be rebuilt from MySQL, which counts this sale.)
--   7 UNRECORDED       no record, the SKU exists, and ARGV[6] is 0: nothing changed
--   8 REFUSED          the record says the Try was refused (cancel.lua wrote it when the service refused the Try): the
--                      coordinator committed a transaction whose Try this service refused, which no honest caller
--                      does. Nothing is taken; the record keeps when that Confirm came (confirmed_at). The caller
--                      answers the coordinator with success (a retry could change nothing) and raises a finding.
-- Events: APPLIED and TAKEN_UNRECORDED append a CONFIRMED event to the SKU's stream in this same call (see try.lua).
-- (Codes 0-4 are cancel.lua's too: one decoder, PhaseOutcome, reads both.)
-- Idempotency: only a TRIED record moves stock, and it moves exactly once; the records written without one make
-- every replay ALREADY_APPLIED.

-- Reply codes, as the header lists them.
local APPLIED, ALREADY_APPLIED, NO_RECORD, ENDED_OTHERWISE, HELD_IN_MYSQL, TAKEN_UNRECORDED, OVERSOLD, UNRECORDED, REFUSED =
  0, 1, 2, 3, 4, 5, 6, 7, 8

-- From prelude.lua (the loader puts it before this script): append_event, server_id, now_millis, fields.

local stock = KEYS[1]
local fence = stock .. ':tx:' .. ARGV[1] .. ':' .. ARGV[2]
local retention = tonumber(ARGV[3])

local record = fields(fence, 'state', 'quantity', 'alloc', 'branch', 'user')
local state = record.state
local quantity = tonumber(record.quantity or '0')
if not state then
  local sku = fields(stock, 'segments', 'available', 'epoch')
  if not sku.segments then
    return {NO_RECORD, 0}
  end
  if ARGV[6] ~= '1' then
    return {UNRECORDED, 0}
  end
  local units = tonumber(ARGV[4])
  local user = ARGV[5]
  if sku.epoch ~= server_id() then
    redis.call('INCRBY', stock .. ':buyer:' .. user, units)
    local millis = now_millis()
    redis.call('HSET', fence, 'state', 'CONFIRMED', 'quantity', units, 'alloc', '', 'unrecorded', 1, 'user', user,
      'ended_at', millis)
    redis.call('EXPIRE', fence, retention)
    append_event(stock, 'CONFIRMED', millis, {{ARGV[1], ARGV[2], '', units, user}})
    return {TAKEN_UNRECORDED, units}
  end
  if tonumber(sku.available) < units then
    redis.call('HSET', fence, 'state', 'CONFIRMED', 'quantity', 0, 'oversold', units, 'user', user,
      'ended_at', now_millis())
    redis.call('EXPIRE', fence, retention)
    redis.call('HSET', stock .. ':oversold', fence, units)
    return {OVERSOLD, units}
  end
  local left = units
  local parts = {}
  for s = 0, tonumber(sku.segments) - 1 do
    local seg = stock .. ':seg:' .. s
    local take = math.min(tonumber(redis.call('HGET', seg, 'available') or '0'), left)
    if take > 0 then
      redis.call('HINCRBY', seg, 'available', -take)
      parts[#parts + 1] = s .. ':' .. take
      left = left - take
    end
    if left == 0 then
      break
    end
  end
  redis.call('HINCRBY', stock, 'available', -units)
  redis.call('HINCRBY', stock, 'sold', units)
  redis.call('INCRBY', stock .. ':buyer:' .. user, units)
  local millis = now_millis()
  redis.call('HSET', fence, 'state', 'CONFIRMED', 'quantity', units, 'alloc', table.concat(parts, ','),
    'unrecorded', 1, 'user', user, 'ended_at', millis)
  redis.call('EXPIRE', fence, retention)
  append_event(stock, 'CONFIRMED', millis, {{ARGV[1], ARGV[2], '', units, user}})
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
  redis.call('HSETNX', fence, 'confirmed_at', now_millis())
  return {REFUSED, 0}
end

local count = tonumber(redis.call('HGET', stock, 'segments') or '1')
for segment, take in string.gmatch(record.alloc, '(%d+):(%d+)') do
  local seg = stock .. ':seg:' .. segment
  local reserved = redis.call('HINCRBY', seg, 'reserved', -tonumber(take))
  if tonumber(segment) >= count and reserved <= 0 and tonumber(redis.call('HGET', seg, 'available') or '0') <= 0 then
    redis.call('DEL', seg) -- an emptied draining segment (see resegment.lua)
  end
end
redis.call('HINCRBY', stock, 'reserved', -quantity)
redis.call('HINCRBY', stock, 'sold', quantity)
local millis = now_millis()
redis.call('HSET', fence, 'state', 'CONFIRMED', 'ended_at', millis)
redis.call('EXPIRE', fence, retention)
redis.call('SREM', stock .. ':open', fence)
append_event(stock, 'CONFIRMED', millis,
  {{ARGV[1], ARGV[2], record.branch or '', quantity, record.user or ''}})
return {APPLIED, quantity}
