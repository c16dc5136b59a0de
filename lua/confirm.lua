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

-- Reply codes, as the header lists them.
local APPLIED, ALREADY_APPLIED, NO_RECORD, ENDED_OTHERWISE = 0, 1, 2, 3

-- One clock for every script: the Redis server's, in milliseconds.
local function now_millis()
  local t = redis.call('TIME')
  return tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
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
local fence = stock .. ':tx:' .. ARGV[1] .. ':' .. ARGV[2]
local retention = tonumber(ARGV[3])

local record = fields(fence, 'state', 'quantity', 'alloc')
local state = record.state
local quantity = tonumber(record.quantity or '0')
if not state then
  return {NO_RECORD, 0}
end
if state == 'CONFIRMED' then
  return {ALREADY_APPLIED, quantity}
end
if state == 'CANCELLED' then
  return {ENDED_OTHERWISE, quantity}
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
redis.call('HSET', fence, 'state', 'CONFIRMED', 'ended_at', now_millis())
redis.call('EXPIRE', fence, retention)
redis.call('SREM', stock .. ':open', fence)
return {APPLIED, quantity}
