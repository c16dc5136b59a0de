-- mirror.lua: tells Redis about one SKU line of a reservation the MySQL store holds (its Try ran on the MySQL store,
-- against the SKU's allotment: sql/inventory.sql, stock_ledger rows with store MYSQL), so that Redis counts its units
-- towards the buyer's purchase limit, and its fence knows the reservation is not Redis's. The service runs it for
-- every such ledger row whose current state Redis does not reflect yet (redis_mirrored = 0), and again after the
-- row changes; it converges, so a replay changes nothing.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (fence record, buyer counter, segments and events derive from it, see
--          try.lua)
-- ARGV[1]  xid
-- ARGV[2]  reservation id
-- ARGV[3]  units of this SKU the MySQL store holds or held for the reservation (> 0)
-- ARGV[4]  the buyer's user id
-- ARGV[5]  the MySQL row's state: TRIED, CONFIRMED, CANCELLED or REFUSED (the MySQL store recorded the refusal of the
--          reservation's Try while Redis could not be asked: StoreRouter)
-- ARGV[6]  seconds to keep the record once the reservation has ended
-- ARGV[7..9] with REFUSED: the refusal as try.lua answers it (its code, a and b), for a replay of the Try to be
--          answered with it; else absent
--
-- Reply {code, units the buyer's count holds for this reservation now}
--   0 MIRRORED            the fence record <KEYS[1]>:tx:<xid>:<reservation> says MYSQL while the MySQL store holds
--                         the reservation (TRIED or CONFIRMED: try.lua meets it as a replay, confirm.lua and
--                         cancel.lua answer HELD_IN_MYSQL) and CANCELLED once the MySQL store cancelled it (try.lua
--                         refuses, as after any Cancel); the buyer's count holds its units while it is TRIED or
--                         CONFIRMED and none once cancelled (field counted: what this record adds to the count;
--                         counted_at: the server's time when the count first held its units); for a REFUSED row, a
--                         REFUSED record as cancel.lua writes for a refusal recorded in Redis (try.lua answers a
--                         replay with the refusal, confirm.lua takes nothing, cancel.lua ends there), counting nothing
--   1 DUPLICATE_RELEASED  Redis held a TRIED reservation of its own under the same ids (a retried Try that reached
--                         Redis after the MySQL store had taken or refused it, or a Try whose answer was lost on the
--                         way before the retry went to the MySQL store): its units went back to available, as
--                         cancel.lua gives them back (with its CANCELLED event), and the record then became the MySQL
--                         store's, as for MIRRORED
--   2 ENDED_IN_REDIS      Redis's own record under the same ids was confirmed, cancelled or refused already, by a
--                         phase that reached Redis first (whose MySQL step resolved the MySQL store's side) or a
--                         refusal recorded there, and not both stores confirmed (SALE_RETURNED): nothing changed (the
--                         service cancels a TRIED row of the MySQL store that Redis ended without a sale:
--                         MysqlStoreMirror)
--   3 UNKNOWN_SKU         the SKU has no stock hash in Redis: nothing changed (mirrored once it is rebuilt)
--   4 SALE_RETURNED       both stores confirmed the reservation: the MySQL store's row is CONFIRMED and Redis holds a
--                         CONFIRMED record of its own under the same ids (the MySQL store confirmed while Redis was
--                         out of reach, a late Try had landed in Redis meanwhile, and a retried Confirm reached Redis
--                         before this script had run). MySQL counts only the MySQL store's sale (a CONFIRMED row of
--                         the MySQL store is never taken over for Redis, SalesRecord), so Redis's sale is the one too
--                         many: its units go back to available (the segments its record names; an emptied draining
--                         segment's units to an active one), sold and the buyer's count down by them, a RETURNED
--                         event in the stream, and the record then becomes the MySQL store's, as for MIRRORED
-- A record book.lua wrote before the MySQL store's Try (state MYSQL, booked = 1, its units counted) is met like one
-- this script wrote: the units are counted already; the first time the script runs for the row, booked goes.
-- Idempotency: the record remembers what it added to the buyer's count and the MySQL state it reflects, so a replay
-- adds nothing, and a round that read the row before it ended (TRIED) changes nothing once another round has
-- written its end (CONFIRMED or CANCELLED: the MySQL store's states only move forward).

local MIRRORED, DUPLICATE_RELEASED, ENDED_IN_REDIS, UNKNOWN_SKU, SALE_RETURNED = 0, 1, 2, 3, 4

-- From prelude.lua (the loader puts it before this script): append_event, now_millis, fields, release_reservation,
-- segment_keys, touch_keys.

local stock = KEYS[1]
local xid, reservation = ARGV[1], ARGV[2]
local units = tonumber(ARGV[3])
local user = ARGV[4]
local mysql_state = ARGV[5]
local retention = tonumber(ARGV[6])
if units == nil or units <= 0 or units ~= math.floor(units) then
  return redis.error_reply('mirror units must be a positive integer, not ' .. tostring(ARGV[3]))
end
if mysql_state ~= 'TRIED' and mysql_state ~= 'CONFIRMED' and mysql_state ~= 'CANCELLED'
    and mysql_state ~= 'REFUSED' then
  return redis.error_reply('mirror state must be TRIED, CONFIRMED, CANCELLED or REFUSED, not ' .. tostring(mysql_state))
end
local refusal = nil
if mysql_state == 'REFUSED' then
  refusal = {tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])}
  if not refusal[1] or not refusal[2] or not refusal[3] then
    return redis.error_reply('a REFUSED row needs its refusal (code, a, b)')
  end
end
if redis.call('EXISTS', stock) == 0 then
  return {UNKNOWN_SKU, 0}
end

local fence = stock .. ':tx:' .. xid .. ':' .. reservation
local record = fields(fence, 'state', 'quantity', 'alloc', 'branch', 'user', 'mirrored', 'counted', 'mysql_state')
-- every key this call may write is touched before its first write (see touch_keys in the prelude): the segments the
-- record names and the active ones, both buyer counts, the oversold hash, the stream and the open set
local upto = tonumber(redis.call('HGET', stock, 'segments') or '1')
for segment in string.gmatch(record.alloc or '', '(%d+):%d+') do
  upto = math.max(upto, tonumber(segment) + 1)
end
touch_keys(segment_keys(stock, upto, {stock .. ':buyer:' .. user, stock .. ':buyer:' .. (record.user or user),
  stock .. ':oversold', stock .. ':events', stock .. ':open'}))
local code = MIRRORED
local counted = 0
if record.state and not record.mirrored and record.state == 'CONFIRMED' and mysql_state == 'CONFIRMED' then
  -- Redis's own sale of a reservation the MySQL store sold too: Redis's goes back
  local quantity = tonumber(record.quantity or '0')
  local count = tonumber(redis.call('HGET', stock, 'segments') or '1')
  for segment, take in string.gmatch(record.alloc or '', '(%d+):(%d+)') do
    redis.call('HINCRBY', stock .. ':seg:' .. (tonumber(segment) % count), 'available', tonumber(take))
  end
  if quantity > 0 then
    redis.call('HINCRBY', stock, 'sold', -quantity)
    redis.call('HINCRBY', stock, 'available', quantity)
    local buyer = stock .. ':buyer:' .. (record.user or user)
    if redis.call('DECRBY', buyer, quantity) <= 0 then
      redis.call('DEL', buyer)
    end
    append_event(stock, 'RETURNED', now_millis(),
      {{xid, reservation, record.branch or '', quantity, record.user or ''}})
  end
  redis.call('HDEL', stock .. ':oversold', fence) -- a Confirm that found nothing to take took nothing
  redis.call('DEL', fence)
  code = SALE_RETURNED
elseif record.state and not record.mirrored then
  -- Redis's own record under the same ids
  if record.state ~= 'TRIED' then
    return {ENDED_IN_REDIS, 0}
  end
  local millis = now_millis()
  release_reservation(stock, fence, record)
  append_event(stock, 'CANCELLED', millis,
    {{xid, reservation, record.branch or '', tonumber(record.quantity), record.user or ''}})
  redis.call('DEL', fence)
  code = DUPLICATE_RELEASED
elseif record.state then
  counted = tonumber(record.counted or '0')
  if mysql_state == 'TRIED' and record.mysql_state and record.mysql_state ~= 'TRIED' then
    return {MIRRORED, counted} -- the row has ended since this round read it, and Redis knows how
  end
end

local wanted = (mysql_state == 'CANCELLED' or refusal) and 0 or units
local buyer = stock .. ':buyer:' .. user
if wanted ~= counted then
  if redis.call('INCRBY', buyer, wanted - counted) <= 0 then
    redis.call('DEL', buyer)
  end
end
if refusal then
  redis.call('HSET', fence, 'state', 'REFUSED', 'quantity', 0, 'user', user, 'mirrored', 1, 'counted', 0,
    'mysql_state', 'REFUSED', 'refused_code', refusal[1], 'refused_a', refusal[2], 'refused_b', refusal[3],
    'refused_key', stock, 'ended_at', now_millis())
  redis.call('HDEL', fence, 'booked')
  redis.call('EXPIRE', fence, retention)
  return {code, 0}
end
redis.call('HSET', fence, 'state', mysql_state == 'CANCELLED' and 'CANCELLED' or 'MYSQL', 'quantity', units,
  'user', user, 'mirrored', 1, 'counted', wanted, 'mysql_state', mysql_state)
-- a record book.lua wrote ahead of the MySQL store's Try is the row's own from now on: no RELEASE may remove it
redis.call('HDEL', fence, 'booked')
if wanted > 0 then
  -- when the buyer's count first held these units: a Redis Try of the buyer before it could not see them (the lag
  -- the per-user limit has across the two stores, docs/design.md "When Redis is down")
  redis.call('HSETNX', fence, 'counted_at', now_millis())
end
if mysql_state == 'TRIED' then
  redis.call('PERSIST', fence)
else
  redis.call('EXPIRE', fence, retention)
end
return {code, wanted}
