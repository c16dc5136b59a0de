-- moving.lua: marks units on their way from the MySQL store's allotment into Redis. A handover to Redis takes the
-- units out of the allotment in MySQL first (so that the MySQL store never sells a unit Redis may sell too), then
-- handover.lua adds them to Redis; between the two steps they are in neither store. A Try refused for stock meanwhile
-- would tell the buyer the units are gone when they are only moving, so the handover marks them here before its
-- MySQL step: try.lua reports the marked units with an insufficient-stock refusal (the service answers "not now"
-- when they would cover the line), and peek.lua leaves the decision to the Try. handover.lua removes the mark when
-- the units arrive; a mark whose handover was cut short counts only until its deadline.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash; the marks are the fields of <KEYS[1]>:moving, one per operation id,
--          each "<units>:<deadline in ms of the server's clock>"
-- ARGV[1]  MARK or UNMARK
-- ARGV[2]  operation id
-- ARGV[3]  MARK: units (> 0)
-- ARGV[4]  MARK: milliseconds the mark counts for
--
-- Reply {units}: the units marked as moving in now (moving_in), after this call

-- From prelude.lua (the loader puts it before this script): now_millis, moving_in.

local stock = KEYS[1]
local marks = stock .. ':moving'
if ARGV[1] == 'MARK' then
  local units, ttl = tonumber(ARGV[3]), tonumber(ARGV[4])
  if units == nil or units <= 0 or units ~= math.floor(units) or ttl == nil or ttl <= 0 then
    return redis.error_reply('moving.lua MARK needs positive integer units and milliseconds')
  end
  redis.call('HSET', marks, ARGV[2], units .. ':' .. (tonumber(now_millis()) + ttl))
  -- the hash outlives its longest mark by a little, then goes by itself
  if redis.call('PTTL', marks) < ttl then
    redis.call('PEXPIRE', marks, ttl + 1000)
  end
elseif ARGV[1] == 'UNMARK' then
  redis.call('HDEL', marks, ARGV[2])
else
  return redis.error_reply('moving.lua: MARK or UNMARK, not ' .. tostring(ARGV[1]))
end
return {moving_in(stock)}
