/**
 * The Redis connection: the circuit breaker every call goes through, the classification of failures, the replica wait
 * and the durability check at start, the dataset health, and the loader that puts {@code lua/prelude.lua} before
 * every script.
 */
package io.github.flashstock.inventory.redis;
