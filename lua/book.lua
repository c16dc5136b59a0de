-- book.lua: counts a reservation the MySQL store is about to take, while Redis can be asked, towards the buyer's
-- purchase limit in Redis, so that one count decides the limit whichever store sells (docs/design.md, "One buyer
-- count"). The service runs it when Redis refused a Try for want of stock and the SKU's allotment may have the units
-- (StoreRouter): first BOOK, then the MySQL store's Try, then RELEASE if that Try took nothing. What it writes is the
-- record mirror.lua writes for a reservation the MySQL store holds (state MYSQL, the units counted), marked booked
-- until mirror.lua meets the MySQL store's row: try.lua answers a replay BOOKED meanwhile (the MySQL store alone knows
-- whether it took the reservation), confirm.lua and cancel.lua say HELD_IN_MYSQL, and mirror.lua finds the units
-- counted already.
--
-- KEYS[k]   inv:{<sku>}, the stock hash of line k (fence record and buyer counter derive from it, see try.lua), each
--           at most once; every key of one call hashes to one slot
-- ARGV[1]   BOOK or RELEASE
-- ARGV[2]   xid
-- ARGV[3]   reservation id
-- ARGV[4]   the buyer's user id
-- ARGV[4+k] units of line k (> 0)
--
-- Reply {code, line, a, b}; line is the 1-based index of the line that decided (0: every line)
--   BOOK, all or nothing over the lines:
--     0 BOOKED                  every line is counted now, or was already (a replay: its MYSQL record is there):
--                               the buyer's count holds the units, each line has its MYSQL record, booked = 1
--     1 PURCHASE_LIMIT_EXCEEDED a = the SKU's per-user limit, b = units the buyer holds (in either store); nothing
--                               was written
--     2 RECORDED_OTHERWISE      the line has a record of another kind (Redis's own reservation, a CANCELLED or
--                               REFUSED record: try.lua answers those before a Try falls through); nothing written
--     3 UNKNOWN_SKU             the SKU has no stock hash; nothing written
--   RELEASE, line by line:
--     4 RELEASED                a = how many lines gave a booking back: a record still booked (no MySQL row was
--                               ever mirrored onto it) is removed and its units leave the buyer's count; any other
--                               record stays as it is
-- Idempotency: a booked record remembers what it counted (field counted, as mirror.lua keeps it), so BOOK again adds
-- nothing, and RELEASE of a record that is gone or was mirrored changes nothing.

local BOOKED, PURCHASE_LIMIT_EXCEEDED, RECORDED_OTHERWISE, UNKNOWN_SKU = 0, 1, 2, 3
local RELEASED = 4

-- From prelude.lua (the loader puts it before this script): now_millis, fields, touch_keys.

local mode, xid, reservation, user = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if mode ~= 'BOOK' and mode ~= 'RELEASE' then
  return redis.error_reply('book mode must be BOOK or RELEASE, not ' .. tostring(mode))
end
local lines = {}
for k = 1, #KEYS do
  local units = tonumber(ARGV[4 + k])
  if units == nil or units <= 0 or units ~= math.floor(units) then
    return redis.error_reply('book units must be positive integers, not ' .. tostring(ARGV[4 + k]))
  end
  lines[k] = {stock = KEYS[k], units = units, fence = KEYS[k] .. ':tx:' .. xid .. ':' .. reservation,
    buyer = KEYS[k] .. ':buyer:' .. user}
end

-- The buyer counts and records of these lines, touched before the first write (see touch_keys in the prelude; a
-- buyer count is read only under a limit, a record's removal only after its read).
local function touch_lines(list)
  local touched = {}
  for _, line in ipairs(list) do
    touched[#touched + 1] = line.fence
    touched[#touched + 1] = line.buyer
  end
  touch_keys(touched)
end

if mode == 'RELEASE' then
  touch_lines(lines)
  local released = 0
  for _, line in ipairs(lines) do
    local record = fields(line.fence, 'state', 'booked', 'counted')
    if record.state == 'MYSQL' and record.booked == '1' then
      local counted = tonumber(record.counted or '0')
      if counted > 0 and redis.call('DECRBY', line.buyer, counted) <= 0 then
        redis.call('DEL', line.buyer)
      end
      redis.call('DEL', line.fence)
      released = released + 1
    end
  end
  return {RELEASED, 0, released, 0}
end

-- BOOK: decide every line first, write nothing until all pass
local to_count = {}
for k, line in ipairs(lines) do
  if redis.call('EXISTS', line.stock) == 0 then
    return {UNKNOWN_SKU, k, 0, 0}
  end
  local record = fields(line.fence, 'state')
  if record.state and record.state ~= 'MYSQL' then
    return {RECORDED_OTHERWISE, k, 0, 0}
  end
  if not record.state then
    local limit = tonumber(redis.call('HGET', line.stock, 'limit') or '0')
    if limit > 0 then
      local held = tonumber(redis.call('GET', line.buyer) or '0')
      if held + line.units > limit then
        return {PURCHASE_LIMIT_EXCEEDED, k, limit, held}
      end
    end
    to_count[#to_count + 1] = line
  end
end
touch_lines(to_count)
local at = #to_count > 0 and now_millis()
for _, line in ipairs(to_count) do
  redis.call('INCRBY', line.buyer, line.units)
  redis.call('HSET', line.fence, 'state', 'MYSQL', 'quantity', line.units, 'user', user, 'mirrored', 1,
    'counted', line.units, 'mysql_state', 'TRIED', 'booked', 1, 'counted_at', at)
end
return {BOOKED, 0, 0, 0}
