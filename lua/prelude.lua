-- prelude.lua: the helpers that several scripts use, written once. It is no script of its own: whoever loads a
-- script from lua/ sends this file's text, then a newline, then the script (Scripts.source in inventory-service,
-- which every script wrapper and the benchmarks go through), so each script sees these locals as if it had
-- written them at its top. A script must not define a function under one of these names again
-- (ScriptContractTest fails on such a copy); a helper that only one script needs stays in that script.
--
-- Only definitions here: nothing may run a Redis command or read KEYS/ARGV while the prelude itself runs, since it
-- runs before every script.
--
-- Line numbers: Redis reports lines of what it was sent, so a line L in an error (user_script:L) is line L - P of
-- the script, P being the number of lines of this file (`wc -l < lua/prelude.lua`; the loader drops this file's
-- final newline and joins with one, so the script's first line is P + 1).
--
-- By hand: bin/lua-eval <script> [keys...] [, args...] sends prelude + script with `redis-cli --eval` (set
-- REDIS_CLI_ARGS, e.g. "-p 26999", for the server) and shows error lines as the script's own.

-- Unsent entries a SKU's stream keeps at most (approximately: XADD MAXLEN ~) while RocketMQ cannot take them.
local EVENTS_KEPT = 100000

-- Appends one entry to the SKU's event stream: the phase, the server's time, and the events of this call on this
-- SKU as a JSON array of [xid, reservation id, branch id, quantity, user id].
local function append_event(stock, phase, at, events)
  redis.call('XADD', stock .. ':events', 'MAXLEN', '~', EVENTS_KEPT, '*', 'phase', phase, 'at', at,
    'events', cjson.encode(events))
end

-- Which Redis process this is: its run id, new at every start and on a replica promoted in a failover.
local function server_id()
  return string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
end

-- One clock for every script: the Redis server's, in milliseconds.
local function now_millis()
  local t = redis.call('TIME')
  return tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
end

-- Units on their way from the MySQL store's allotment into Redis (handovers to Redis between their MySQL step and
-- this script's, see moving.lua): the sum over <stock>:moving of the marks whose deadline has not passed.
local function moving_in(stock)
  local marks = redis.call('HGETALL', stock .. ':moving')
  if #marks == 0 then
    return 0
  end
  local now = tonumber(now_millis())
  local units = 0
  for i = 2, #marks, 2 do
    local n, deadline = string.match(marks[i], '^(%d+):(%d+)$')
    if n and tonumber(deadline) > now then
      units = units + tonumber(n)
    end
  end
  return units
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

-- Segment s's part when units are spread evenly over count segments (the first ones take the remainder).
local function share_of(units, count, s)
  local share = math.floor(units / count)
  if s < units % count then
    return share + 1
  end
  return share
end

-- The handovers a rebuild settles (see handover.lua): ARGV[from] = their count n, ARGV[from + 1] = seconds to
-- remember them, then n pairs (operation id, units). Returns the list and the index after it.
local function handovers_at(from)
  local n = tonumber(ARGV[from])
  local list = {}
  for i = 1, n do
    list[i] = {ARGV[from + 2 * i], ARGV[from + 2 * i + 1]}
  end
  return list, tonumber(ARGV[from + 1]), from + 2 + 2 * n
end

-- The keys remember_handovers writes for list, appended to keys; for touch_keys.
local function handover_keys(stock, list, keys)
  for _, h in ipairs(list) do
    keys[#keys + 1] = stock .. ':handover:' .. h[1]
  end
  return keys
end

-- Marks each handover as applied in Redis with its units, the rebuilt counters having accounted for it; a mark
-- already there stays as it is.
local function remember_handovers(stock, list, seconds)
  for _, h in ipairs(list) do
    redis.call('SET', stock .. ':handover:' .. h[1], h[2], 'NX', 'EX', seconds)
  end
end

-- Gives a TRIED reservation's units back: out of reserved and into available, in the segments its record names
-- (units of a draining segment, one beyond the active count since a resegment, go to an active one, and an
-- emptied draining segment goes), and the buyer's count down by them; the record leaves the open set. The caller
-- sets the record's new state. (cancel.lua, and mirror.lua when it releases a duplicate.)
local function release_reservation(stock, fence, record)
  local quantity = tonumber(record.quantity)
  local count = tonumber(redis.call('HGET', stock, 'segments') or '1')
  for segment, take in string.gmatch(record.alloc, '(%d+):(%d+)') do
    local s = tonumber(segment)
    local units = tonumber(take)
    local key = stock .. ':seg:' .. s
    local reserved = redis.call('HINCRBY', key, 'reserved', -units)
    if s >= count then
      -- Tries no longer search a draining segment, so the released units become available in an active one
      redis.call('HINCRBY', stock .. ':seg:' .. (s % count), 'available', units)
      if reserved <= 0 and tonumber(redis.call('HGET', key, 'available') or '0') <= 0 then
        redis.call('DEL', key)
      end
    else
      redis.call('HINCRBY', key, 'available', units)
    end
  end
  redis.call('HINCRBY', stock, 'reserved', -quantity)
  redis.call('HINCRBY', stock, 'available', quantity)
  local buyer = stock .. ':buyer:' .. record.user
  if redis.call('DECRBY', buyer, quantity) <= 0 then
    redis.call('DEL', buyer)
  end
  redis.call('SREM', stock .. ':open', fence)
end

-- Touches every key of keys (EXISTS, in slices), so that a call fails before its first write rather than half-way:
-- on a Redis Cluster whose slot is being migrated, a key already moved to the other node, or one that does not
-- exist yet (it would be created there), raises "Script attempted to access a non local key" at its first access,
-- and a script that writes a key it has not read before would stop after its earlier writes (issue #59: confirm.lua
-- would sell the units, then fail at the XADD of a stream that had moved). Every script that writes more than one
-- key touches what it may write before it writes: try.lua the keys its decision did not read, each_phase everything,
-- the others what they compute from their stock hash (segment_keys, handover_keys).
local function touch_keys(keys)
  for from = 1, #keys, 500 do
    redis.call('EXISTS', unpack(keys, from, math.min(from + 499, #keys)))
  end
end

-- The keys of segments 0 .. upto - 1 of a SKU, appended to keys (a new list when keys is nil); for touch_keys.
local function segment_keys(stock, upto, keys)
  keys = keys or {}
  for s = 0, upto - 1 do
    keys[#keys + 1] = stock .. ':seg:' .. s
  end
  return keys
end

-- The second phases of one call (confirm.lua, cancel.lua), one per KEYS[i], each decided on its own, in order:
-- decide(stock, a, record) with a = the index in ARGV of the phase's first value (ARGV[1] is the call's, then
-- width values per phase) answers {code, quantity} and may record(stock, event) the phase's event. Each runs under
-- pcall: a phase that raises an error (a corrupt value) answers {failed, 0} and is logged in Redis's log, and the
-- others go on. Then one stream entry per SKU with the recorded events, phase event_phase, time at. Returns the
-- reply: {code, quantity} per phase. Before any of it, every key the phases may write is touched (touch_keys), outside
-- pcall: a key out of reach fails the whole call with nothing written. user_at: the offset from a of the caller's
-- user id among a phase's values, or nil.
local function each_phase(script, event_phase, width, failed, at, decide, user_at)
  -- The keys a second phase of one reservation on one SKU may write (each_phase): the stock hash, its open set,
  -- stream and oversold hash, its active segments and those the record names, the fence record, and the buyer counts
  -- of the record's user and of the caller's word (user, may be nil). The stock hash and the record are read with
  -- redis.pcall: a key of the wrong type or a corrupt value stays the one phase's failure ({failed, 0}, decided under
  -- pcall below), not the whole call's; a key out of reach still fails the call, at the touch.
  local function phase_keys(stock, fence, user)
    local keys = {stock, stock .. ':open', stock .. ':events', stock .. ':oversold', fence}
    local segments = redis.pcall('HGET', stock, 'segments')
    local count = type(segments) == 'string' and tonumber(segments) or 0
    for s = 0, count - 1 do
      keys[#keys + 1] = stock .. ':seg:' .. s
    end
    local record = redis.pcall('HMGET', fence, 'alloc', 'user')
    if type(record) ~= 'table' or record.err then
      record = {}
    end
    for segment in string.gmatch(record[1] or '', '(%d+):%d+') do
      keys[#keys + 1] = stock .. ':seg:' .. segment
    end
    if record[2] then
      keys[#keys + 1] = stock .. ':buyer:' .. record[2]
    end
    if user and user ~= '' and user ~= record[2] then
      keys[#keys + 1] = stock .. ':buyer:' .. user
    end
    return keys
  end
  local touched = {}
  for i = 1, #KEYS do
    local a = 2 + width * (i - 1)
    local fence = KEYS[i] .. ':tx:' .. ARGV[a] .. ':' .. ARGV[a + 1]
    for _, key in ipairs(phase_keys(KEYS[i], fence, user_at and ARGV[a + user_at])) do
      touched[#touched + 1] = key
    end
  end
  touch_keys(touched)

  local events = {}
  local order = {}
  local function record(stock, event)
    if not events[stock] then
      events[stock] = {}
      order[#order + 1] = stock
    end
    local list = events[stock]
    list[#list + 1] = event
  end
  local reply = {}
  for i = 1, #KEYS do
    local a = 2 + width * (i - 1)
    local ok, result = pcall(decide, KEYS[i], a, record)
    if not ok then
      redis.log(redis.LOG_WARNING, script .. ': reservation ' .. tostring(ARGV[a + 1]) .. ' on ' .. KEYS[i]
        .. ' failed: ' .. tostring(type(result) == 'table' and result.err or result))
      result = {failed, 0}
    end
    reply[#reply + 1] = result[1]
    reply[#reply + 1] = result[2]
  end
  for _, stock in ipairs(order) do
    append_event(stock, event_phase, at, events[stock])
  end
  return reply
end
