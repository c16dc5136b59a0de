-- sweep.lua: removes the keys of a SKU whose sale is closed and over, so that nothing of it stays in Redis's memory:
-- segments, buyer counts, fence records (finished ones included: no Try of a closed SKU is taken again, and a
-- replayed Confirm that finds no record asks the ledger), the empty stream and the handover marks. The service finds
-- the keys (SCAN MATCH inv:{<sku>}* on the server that holds the SKU's slot) and hands them over in batches, the
-- stock hash last; it runs this only once MySQL has no open reservation of the SKU, no row Redis has still to
-- reflect and no handover under way.
--
-- KEYS[1]   inv:{<sku>}, the SKU's stock hash
-- KEYS[2..] keys of that SKU to remove (each must begin with KEYS[1]: anything else is refused, nothing removed)
-- ARGV[1]   1 when the stock hash goes too (the last batch), else 0
--
-- Reply {code, removed}
--   0 SWEPT        the keys are removed (UNLINK; removed counts those that existed)
--   1 NOT_CLOSED   the stock hash is not marked closed (close.lua): nothing removed
--   2 NOT_OVER     units are still reserved, a reservation is still open, an event is still unsent or a rebuild
--                  holds the SKU's lock: nothing removed; the service tries again later
--   3 UNKNOWN_SKU  no stock hash (swept before): the keys given are removed all the same, so that a replay
--                  finishes what a cut-short sweep began

local SWEPT, NOT_CLOSED, NOT_OVER, UNKNOWN_SKU = 0, 1, 2, 3

-- From prelude.lua (the loader puts it before this script): fields, touch_keys.

local stock = KEYS[1]
local prefix = stock .. ':'
local doomed = {}
for i = 2, #KEYS do
  if KEYS[i]:sub(1, #prefix) ~= prefix then
    return redis.error_reply('sweep.lua: ' .. KEYS[i] .. ' is not a key of ' .. stock)
  end
  doomed[#doomed + 1] = KEYS[i]
end
if ARGV[1] == '1' then
  doomed[#doomed + 1] = stock
end
local touched = {stock .. ':open', stock .. ':events', stock .. ':reload'}
for _, key in ipairs(doomed) do
  touched[#touched + 1] = key
end
touch_keys(touched)

local h = fields(stock, 'segments', 'closed', 'reserved')
local code = SWEPT
if not h.segments then
  code = UNKNOWN_SKU
elseif not h.closed then
  return {NOT_CLOSED, 0}
elseif tonumber(h.reserved or '0') > 0 or redis.call('SCARD', stock .. ':open') > 0
    or redis.call('EXISTS', stock .. ':reload') == 1
    or (redis.call('EXISTS', stock .. ':events') == 1 and redis.call('XLEN', stock .. ':events') > 0) then
  return {NOT_OVER, 0}
end
local removed = 0
for from = 1, #doomed, 500 do
  removed = removed + redis.call('UNLINK', unpack(doomed, from, math.min(from + 499, #doomed)))
end
return {code, removed}
