-- peek.lua: reads one SKU's units available, to refuse a Try of a sold-out SKU before it becomes a branch of its
-- global transaction (the service's SoldOutShortcut). Writes nothing; decides nothing: a Try that goes ahead is
-- decided by try.lua, which reads everything again.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (see try.lua)
-- ARGV[1]  xid of the Try about to run
-- ARGV[2]  its reservation id
--
-- Reply {code, available}
--   0 AVAILABLE     available = the SKU's units available in Redis (the stock hash's field, the sum of its segments)
--   1 ASK_THE_TRY   the peek cannot speak for this Try: the SKU has no stock hash, or one built on another Redis
--                   process (stale, see try.lua), or the reservation already has a fence record on the SKU (a
--                   replay of a Try that reserved, a Try after its Cancel, a reservation the MySQL store holds), or
--                   units are on their way into Redis (moving.lua): only try.lua knows the answer then

local AVAILABLE, ASK_THE_TRY = 0, 1

-- From prelude.lua (the loader puts it before this script): server_id, moving_in.

local stock = KEYS[1]
local h = redis.call('HMGET', stock, 'segments', 'available', 'epoch')
if not h[1] then
  return {ASK_THE_TRY, 0}
end
if h[3] ~= server_id() then
  return {ASK_THE_TRY, 0}
end
if redis.call('EXISTS', stock .. ':tx:' .. ARGV[1] .. ':' .. ARGV[2]) == 1 then
  return {ASK_THE_TRY, 0}
end
if moving_in(stock) > 0 then
  return {ASK_THE_TRY, 0}
end
return {AVAILABLE, tonumber(h[2])}
