-- confirm.lua: the TCC Confirm phase for one SKU of one reservation. Driven by the fence record only: the
-- quantity and the segments it touches are those the Try recorded, never values from the caller.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments and the fence record are derived from it, see try.lua)
-- ARGV[1]  xid
-- ARGV[2]  reservation id
-- ARGV[3]  seconds to keep the finished record (it must outlive any retry of this transaction)
--
-- Reply {code, quantity}
--   0 APPLIED          the TRIED record is now CONFIRMED: reserved -= q (SKU and segments), sold += q (SKU)
--   1 ALREADY_APPLIED  the record is CONFIRMED already: a replay, nothing changed
--   2 NO_RECORD        no record: the Try never reached Redis (or Redis lost it); nothing changed
--   3 ENDED_OTHERWISE  the reservation was cancelled; a Confirm cannot undo that; nothing changed
-- (The same four names as cancel.lua's: one decoder, PhaseOutcome, reads both.)
-- Idempotency: only a TRIED record moves stock, and it moves exactly once.

local stock = KEYS[1]
local fence = stock .. ':tx:' .. ARGV[1] .. ':' .. ARGV[2]
local retention = tonumber(ARGV[3])

local record = redis.call('HMGET', fence, 'state', 'quantity', 'alloc')
local state = record[1]
local quantity = tonumber(record[2] or '0')
if not state then
  return {2, 0}
end
if state == 'CONFIRMED' then
  return {1, quantity}
end
if state == 'CANCELLED' then
  return {3, quantity}
end

local count = tonumber(redis.call('HGET', stock, 'segments') or '1')
for segment, take in string.gmatch(record[3], '(%d+):(%d+)') do
  local seg = stock .. ':seg:' .. segment
  local reserved = redis.call('HINCRBY', seg, 'reserved', -tonumber(take))
  if tonumber(segment) >= count and reserved <= 0 and tonumber(redis.call('HGET', seg, 'available') or '0') <= 0 then
    redis.call('DEL', seg) -- an emptied draining segment (see resegment.lua)
  end
end
redis.call('HINCRBY', stock, 'reserved', -quantity)
redis.call('HINCRBY', stock, 'sold', quantity)
local now = redis.call('TIME')
redis.call('HSET', fence, 'state', 'CONFIRMED',
  'ended_at', tostring(tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)))
redis.call('EXPIRE', fence, retention)
redis.call('SREM', stock .. ':open', fence)
return {0, quantity}
