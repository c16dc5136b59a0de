/**
 * The Redis side of stock: one typed wrapper per Lua script in {@code lua/}. Each wrapper is the only place
 * that builds its script's keys and arguments and decodes its reply.
 */
package io.github.flashstock.inventory.stock.redis;
