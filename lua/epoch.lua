-- epoch.lua: tells whether a SKU's Redis stock was built on this Redis process (see try.lua, STALE_SKU). Read-only.
--
-- KEYS[1]  inv:{<sku>}, the SKU's stock hash
--
-- Reply {code}
--   0 CURRENT      the SKU's epoch is this server's run id: it sells
--   1 STALE        it was built on another process (a restart or failover since): it sells nothing until rebuilt
--   2 UNKNOWN_SKU  no stock hash
-- Idempotency: reads only.
local CURRENT, STALE, UNKNOWN_SKU = 0, 1, 2

-- From prelude.lua (the loader puts it before this script): server_id.

if redis.call('HEXISTS', KEYS[1], 'segments') == 0 then
  return {UNKNOWN_SKU}
end
if redis.call('HGET', KEYS[1], 'epoch') == server_id() then
  return {CURRENT}
end
return {STALE}
