-- reload.lua: rebuilds a SKU's Redis stock from MySQL's record plus the reservations still open in Redis.
-- For a SKU whose Redis state is suspect (restored from an old snapshot, edited by hand, drifted).
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash (segments, fence records and <KEYS[1]>:open derive from it, see try.lua)
-- ARGV[1]  MySQL stocked: units ever stocked
-- ARGV[2]  MySQL sold: units sold
-- ARGV[3]  MySQL reserved: units held by Tries on the MySQL store (not Redis's to sell)
-- ARGV[4]  per-user limit (0: none)
-- ARGV[5]  1 when the SKU's sale is closed in MySQL (the stock hash is marked closed too, see close.lua), else 0
-- ARGV[6..] the handovers still PENDING in MySQL, which this rebuild settles (marked applied when it writes,
--           so that their Redis step changes nothing afterwards): their count n, seconds to remember them, then n
--           pairs (operation id, units: for one towards MySQL, those its counters leave out; towards Redis, those
--           its counters include)
--
-- Reply {code, available, reserved, sold, open reservations}, the values now in Redis
--   0 RELOADED      sold = MySQL sold; reserved = the open (TRIED) reservations' units, each kept in the segment
--                   its fence record names; available = what MySQL has available, less those reservations;
--                   stocked = available + reserved + sold (MySQL's reserved units are not Redis's)
--   1 OPEN_EXCEEDS  the open reservations hold more units than MySQL has available: nothing changed; the reply
--                   carries MySQL's available instead of Redis's
-- The segment count is kept (1 if the SKU was missing); available units are spread evenly over the active
-- segments. Buyer counters are left as they are. Idempotency: a replay computes the same state.
local RELOADED, OPEN_EXCEEDS = 0, 1

-- From prelude.lua (the loader puts it before this script): fields, share_of, handovers_at, remember_handovers,
-- segment_keys, handover_keys, touch_keys.

local stock = KEYS[1]
local sold = tonumber(ARGV[2])
local unsold = tonumber(ARGV[1]) - sold - tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local closed = ARGV[5] == '1'
local handovers, handovers_kept = handovers_at(6)
local sku = fields(stock, 'segments', 'seg_span')
local count = tonumber(sku.segments or '1')
local span = tonumber(sku.seg_span or sku.segments or '1')
-- Open reservations: what each one holds, per segment.
local held = {}
local reserved = 0
local open = 0
local open_key = stock .. ':open'
-- read everything first: every key it writes is touched before its first write (see touch_keys in the prelude)
local ended = {} -- members of the open set whose record is no longer TRIED
for _, fence in ipairs(redis.call('SMEMBERS', open_key)) do
  local record = fields(fence, 'state', 'quantity', 'alloc')
  if record.state == 'TRIED' then
    open = open + 1
    reserved = reserved + tonumber(record.quantity)
    for segment, take in string.gmatch(record.alloc, '(%d+):(%d+)') do
      local s = tonumber(segment)
      held[s] = (held[s] or 0) + tonumber(take)
      if s + 1 > span then
        span = s + 1
      end
    end
  else
    ended[#ended + 1] = fence
  end
end
if reserved > unsold then
  return {OPEN_EXCEEDS, unsold, reserved, sold, open}
end
touch_keys(handover_keys(stock, handovers, segment_keys(stock, span)))
for _, fence in ipairs(ended) do
  redis.call('SREM', open_key, fence)
end
-- Segments: reserved units where the records say, available units spread over the active ones.
local available = unsold - reserved
local new_span = count
for s = 0, span - 1 do
  local key = stock .. ':seg:' .. s
  local hold = held[s] or 0
  local units = 0
  if s < count then
    units = share_of(available, count, s)
  end
  if s < count or hold > 0 then
    redis.call('HSET', key, 'available', units, 'reserved', hold)
    if s + 1 > new_span then
      new_span = s + 1
    end
  else
    redis.call('DEL', key)
  end
end
redis.call('HSET', stock, 'stocked', unsold + sold, 'available', available, 'reserved', reserved, 'sold', sold,
  'limit', limit, 'segments', count, 'seg_span', new_span)
if closed then
  redis.call('HSET', stock, 'closed', 1)
end
remember_handovers(stock, handovers, handovers_kept)
return {RELOADED, available, reserved, sold, open}
