-- rebuild.lua: rebuilds a SKU's Redis stock from the durable record after its Redis server restarted or failed
-- over (the SKU's epoch is not this server's run id, see try.lua), or after Redis lost the SKU altogether.
-- The caller runs it only once every global transaction that was open when the loss was noticed has ended, so no
-- Try, Confirm or Cancel of the lost past can still arrive, and Tries of this SKU were refused (STALE_SKU) since.
-- MySQL then says everything: sold counts every committed Confirm; every reservation still open in Redis has
-- ended, and the ledger says how.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments, fence records and <KEYS[1]>:open derive from it)
-- ARGV[1]  MySQL stocked
-- ARGV[2]  MySQL sold
-- ARGV[3]  MySQL reserved (units held by Tries on the MySQL store: not Redis's to sell)
-- ARGV[4]  per-user limit (0: none)
-- ARGV[5]  seconds to keep the fence records this closes
-- ARGV[6]  segment count when the SKU has no stock hash (>= 1)
-- ARGV[7]  1 when the SKU's sale is closed in MySQL (the stock hash is marked closed too, see close.lua), else 0
-- ARGV[8..] the handovers still PENDING in MySQL, which this rebuild settles (marked applied when it writes,
--           so that their Redis step changes nothing afterwards): their count n, seconds to remember them, then n
--           pairs (operation id, units: for one towards MySQL, those its counters leave out; towards Redis, those
--           its counters include)
-- ARGV[...] after those, the MySQL store's rows of the SKU (every state), so that Redis counts them as mirror.lua
--           would: their count m, then m quadruples (fence key, units, user id, state TRIED | CONFIRMED | CANCELLED |
--           REFUSED)
-- ARGV[...] after those, each buyer's units as the durable record has them (CONFIRMED rows of both stores and the
--           MySQL store's TRIED ones): their count b, then b pairs (user id, units)
-- ARGV[...] after those, the fence keys of open reservations the ledger records as CONFIRMED
--
-- Reply {code, available, sold, closed as confirmed, closed as cancelled}
--   0 REBUILT  every open (TRIED) reservation is closed: CONFIRMED where ARGV names it (its units are in MySQL's
--                sold), CANCELLED otherwise (its units go back, the buyer's count drops); each of the MySQL store's
--                rows has the record mirror.lua would write (a TRIED or CONFIRMED row's units counted, a lost record
--                written again; a record of an ended row counts nothing); each buyer's count is what the durable
--                record says, so a buyer never gets more than the limit after a Redis that lost writes; sold = MySQL sold,
--                reserved = 0, available = MySQL stocked - sold - reserved, spread evenly over the segments;
--                segments past the count are removed; epoch = this server's run id, so the SKU sells again
--   1 NOT_STALE  the SKU's epoch is this server's run id already (rebuilt by someone else, or never stale):
--                nothing changed, since its open reservations may belong to transactions still running; or the SKU
--                is closed (ARGV[7]) and Redis holds neither its stock hash nor an open reservation of it (swept, or
--                about to be): nothing written
-- Idempotency: a replay finds NOT_STALE.
local REBUILT, NOT_STALE = 0, 1

-- From prelude.lua (the loader puts it before this script):
--   server_id, now_millis, fields, share_of, handovers_at, remember_handovers, segment_keys, handover_keys,
--   touch_keys.

local stock = KEYS[1]
local stocked = tonumber(ARGV[1])
local sold = tonumber(ARGV[2])
local mysql_reserved = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local retention = tonumber(ARGV[5])
local confirmed = {}
local closed = ARGV[7] == '1'
local handovers, handovers_kept, rows_from = handovers_at(8)
local mysql_rows = {}
local m = tonumber(ARGV[rows_from])
for i = 1, m do
  local at = rows_from + 4 * (i - 1)
  mysql_rows[i] = {fence = ARGV[at + 1], units = tonumber(ARGV[at + 2]), user = ARGV[at + 3], state = ARGV[at + 4]}
end
local buyers_from = rows_from + 1 + 4 * m
local buyer_counts = {}
local b = tonumber(ARGV[buyers_from])
for i = 1, b do
  buyer_counts[i] = {ARGV[buyers_from + 2 * i - 1], tonumber(ARGV[buyers_from + 2 * i])}
end
for i = buyers_from + 1 + 2 * b, #ARGV do
  confirmed[ARGV[i]] = true
end
local sku = fields(stock, 'segments', 'seg_span', 'epoch')
local this_server = server_id()
if sku.epoch == this_server then
  return {NOT_STALE, 0, 0, 0, 0}
end
if closed and not sku.segments and redis.call('SCARD', stock .. ':open') == 0 then
  -- a closed SKU of which Redis holds no stock and no open reservation: nothing to rebuild, the sweep ends it (a
  -- rebuild asked for before a sweep and run after it must not bring the SKU back)
  return {NOT_STALE, 0, 0, 0, 0}
end
local count = tonumber(sku.segments or ARGV[6])
local span = tonumber(sku.seg_span or sku.segments or ARGV[6])

local closed_confirmed, closed_cancelled = 0, 0
local open_key = stock .. ':open'
local ended_at = now_millis()
-- read first: every key written below is touched before the first write (see touch_keys in the prelude)
local open_records = {}
local touched = {open_key}
for _, fence in ipairs(redis.call('SMEMBERS', open_key)) do
  local record = fields(fence, 'state', 'quantity', 'user')
  open_records[#open_records + 1] = {fence = fence, record = record}
  if record.user then
    touched[#touched + 1] = stock .. ':buyer:' .. record.user
  end
end
for _, row in ipairs(mysql_rows) do
  touched[#touched + 1] = row.fence
end
for _, bc in ipairs(buyer_counts) do
  touched[#touched + 1] = stock .. ':buyer:' .. bc[1]
end
touch_keys(handover_keys(stock, handovers, segment_keys(stock, math.max(span, count), touched)))

for _, open in ipairs(open_records) do
  local fence, record = open.fence, open.record
  if record.state == 'TRIED' then
    if confirmed[fence] then
      redis.call('HSET', fence, 'state', 'CONFIRMED', 'rebuilt', 1, 'ended_at', ended_at)
      closed_confirmed = closed_confirmed + 1
    else
      redis.call('HSET', fence, 'state', 'CANCELLED', 'rebuilt', 1, 'ended_at', ended_at)
      if record.user then
        redis.call('DECRBY', stock .. ':buyer:' .. record.user, tonumber(record.quantity))
      end
      closed_cancelled = closed_cancelled + 1
    end
    redis.call('EXPIRE', fence, retention)
  end
  redis.call('SREM', open_key, fence)
end

-- the MySQL store's reservations, as mirror.lua leaves them: a lost record of a TRIED or CONFIRMED row is written
-- again, and every record of the store counts what its row holds now (what the buyer counts below assume)
for _, row in ipairs(mysql_rows) do
  local wanted = (row.state == 'TRIED' or row.state == 'CONFIRMED') and row.units or 0
  local record = fields(row.fence, 'state', 'mirrored', 'counted')
  if not record.state then
    if wanted > 0 then
      redis.call('HSET', row.fence, 'state', 'MYSQL', 'quantity', row.units, 'user', row.user, 'mirrored', 1,
        'counted', wanted, 'mysql_state', row.state, 'rebuilt', 1)
      if row.state == 'CONFIRMED' then
        redis.call('EXPIRE', row.fence, retention)
      end
    end
  elseif record.mirrored and tonumber(record.counted or '0') ~= wanted then
    redis.call('HSET', row.fence, 'counted', wanted)
  end
end
-- each buyer's count, from the durable record
for _, bc in ipairs(buyer_counts) do
  local key = stock .. ':buyer:' .. bc[1]
  if bc[2] > 0 then
    redis.call('SET', key, bc[2])
  else
    redis.call('DEL', key)
  end
end

local available = stocked - sold - mysql_reserved
if available < 0 then
  available = 0
end
for s = 0, math.max(span, count) - 1 do
  local key = stock .. ':seg:' .. s
  if s < count then
    redis.call('HSET', key, 'available', share_of(available, count, s), 'reserved', 0)
  else
    redis.call('DEL', key)
  end
end
redis.call('HSET', stock, 'stocked', available + sold, 'available', available, 'reserved', 0, 'sold', sold,
  'limit', limit, 'segments', count, 'seg_span', count, 'epoch', this_server)
if closed then
  redis.call('HSET', stock, 'closed', 1)
end
remember_handovers(stock, handovers, handovers_kept)
return {REBUILT, available, sold, closed_confirmed, closed_cancelled}
