-- unlock.lua: ends a lock only if it is still held by the caller's token (never someone else's lock
-- taken after ours expired).
--
-- KEYS[1]  the lock key
-- ARGV[1]  the token the caller set when it took the lock
--
-- Reply {code}
--   0 UNLOCKED  the lock held our token and is gone
--   1 NOT_HELD  the lock is gone or held by another token: nothing changed
-- Idempotency: a replay finds NOT_HELD.

local UNLOCKED, NOT_HELD = 0, 1

if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return {UNLOCKED}
end
return {NOT_HELD}
