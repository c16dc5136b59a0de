-- limit.lua: sets a SKU's per-user limit in Redis (field limit of the stock hash, which try.lua and book.lua read).
-- The service writes MySQL's row first, so a load or rebuild of the SKU from MySQL brings the new limit either way.
-- A buyer's count is left as it is: the next Try compares what the buyer holds already with the new limit.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (see try.lua)
-- ARGV[1]  the limit: a positive integer, or 0 for none
--
-- Reply {code}
--   0 SET          the stock hash has the limit now
--   1 UNKNOWN_SKU  the SKU has no stock hash in Redis: nothing written (a load from MySQL brings the limit)
--   2 REBUILDING   a rebuild of the SKU holds its lock (<KEYS[1]>:reload) and may have read the old limit: nothing
--                  written; try again after it

local SET, UNKNOWN_SKU, REBUILDING = 0, 1, 2

local stock = KEYS[1]
local limit = tonumber(ARGV[1])
if limit == nil or limit < 0 or limit ~= math.floor(limit) then
  return redis.error_reply('limit.lua: the limit must be 0 or a positive integer, not ' .. tostring(ARGV[1]))
end
if redis.call('HEXISTS', stock, 'segments') == 0 then
  return {UNKNOWN_SKU}
end
if redis.call('EXISTS', stock .. ':reload') == 1 then
  return {REBUILDING}
end
redis.call('HSET', stock, 'limit', limit)
return {SET}
