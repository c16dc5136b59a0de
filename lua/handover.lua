-- handover.lua: the Redis side of a handover, which moves units between a SKU's Redis store and its allotment
-- (sql/inventory.sql, stock_handover). Once per operation id: the first call decides and remembers how many units
-- moved, every later call with that id changes nothing and answers the same.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments derive from it, see try.lua)
-- ARGV[1]  direction: OUT (Redis gives units to the MySQL store's allotment) or IN (Redis takes units from it)
-- ARGV[2]  units (> 0): for OUT at most this many (as many as are available, up to it); for IN exactly this many
-- ARGV[3]  operation id
-- ARGV[4]  seconds to remember the operation id
--
-- Reply {code, moved, available}: moved = units this operation moved (now or in the call that applied it),
-- available = the SKU's available units in Redis now
--   0 MOVED            OUT: available -= moved and stocked -= moved, each segment giving its share of it;
--                      IN: available += units and stocked += units, spread evenly over the active segments
--   1 ALREADY_APPLIED  this operation id was applied before: nothing changed
--   2 UNKNOWN_SKU      the SKU has no stock in Redis: nothing changed
--   3 STALE_SKU        the SKU's epoch is not this server's run id (see try.lua): nothing changed; the service
--                      rebuilds it first (rebuild.lua), and the rebuild settles the handovers still pending
--   4 REBUILDING       a rebuild of the SKU holds its lock (<KEYS[1]>:reload): nothing changed; try again after it.
--                      A rebuild reads MySQL's record and the pending handovers under that lock and marks them, so
--                      no handover step may slip in between its read and its write
-- Units reserved by open Tries never move. Idempotency: the operation id and the units moved are recorded in
-- <KEYS[1]>:handover:<id> in the same script. IN also removes the operation's mark in <KEYS[1]>:moving (moving.lua):
-- the units have arrived.

local MOVED, ALREADY_APPLIED, UNKNOWN_SKU, STALE_SKU, REBUILDING = 0, 1, 2, 3, 4

-- From prelude.lua (the loader puts it before this script): server_id, fields, share_of, now_millis, segment_keys,
-- touch_keys.

local stock = KEYS[1]
local direction = ARGV[1]
local units = tonumber(ARGV[2])
local marker = stock .. ':handover:' .. ARGV[3]
if direction ~= 'OUT' and direction ~= 'IN' then
  return redis.error_reply('handover direction must be OUT or IN, not ' .. tostring(direction))
end
if units == nil or units <= 0 or units ~= math.floor(units) then
  return redis.error_reply('handover units must be a positive integer, not ' .. tostring(ARGV[2]))
end

local sku = fields(stock, 'segments', 'available', 'epoch')
local count = tonumber(sku.segments or '0')
if count == 0 then
  return {UNKNOWN_SKU, 0, 0}
end
if redis.call('EXISTS', stock .. ':reload') == 1 then
  return {REBUILDING, 0, tonumber(sku.available)}
end
-- every key this call may write is touched before its first write (see touch_keys in the prelude): the marker, the
-- moving marks, the segments (the stock hash and the lock were read above)
touch_keys(segment_keys(stock, count, {marker, stock .. ':moving'}))
local done = redis.call('GET', marker)
if direction == 'IN' and (done or sku.epoch == server_id()) then
  redis.call('HDEL', stock .. ':moving', ARGV[3])
end
if done then
  return {ALREADY_APPLIED, tonumber(done), tonumber(sku.available)}
end
if sku.epoch ~= server_id() then
  return {STALE_SKU, 0, tonumber(sku.available)}
end

local moved = units
if direction == 'OUT' then
  moved = math.min(units, tonumber(sku.available))
  -- each segment gives its proportional part (rounded down), the rest comes one unit at a time from the first that
  -- still have some, so what stays is spread as it was
  local has, total = {}, 0
  for s = 0, count - 1 do
    has[s] = tonumber(redis.call('HGET', stock .. ':seg:' .. s, 'available') or '0')
    total = total + has[s]
  end
  if total < moved then
    return redis.error_reply('segments of ' .. stock .. ' hold fewer available units than the SKU says')
  end
  local take, left = {}, moved
  for s = 0, count - 1 do
    take[s] = total == 0 and 0 or math.floor(has[s] * moved / total)
    left = left - take[s]
  end
  -- the rest (fewer units than segments) one unit each, from the first segments that still have one
  while left > 0 do
    for s = 0, count - 1 do
      if left > 0 and has[s] > take[s] then
        take[s] = take[s] + 1
        left = left - 1
      end
    end
  end
  for s = 0, count - 1 do
    if take[s] > 0 then
      redis.call('HINCRBY', stock .. ':seg:' .. s, 'available', -take[s])
    end
  end
  if moved > 0 then
    redis.call('HINCRBY', stock, 'stocked', -moved)
    redis.call('HINCRBY', stock, 'available', -moved)
  end
else
  for s = 0, count - 1 do
    local add = share_of(units, count, s)
    if add > 0 then
      redis.call('HINCRBY', stock .. ':seg:' .. s, 'available', add)
    end
  end
  redis.call('HINCRBY', stock, 'stocked', units)
  redis.call('HINCRBY', stock, 'available', units)
end
redis.call('SET', marker, moved, 'EX', tonumber(ARGV[4]))
local available = tonumber(redis.call('HGET', stock, 'available'))
return {MOVED, moved, available}
