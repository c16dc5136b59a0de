/** The inventory service: Redis + Lua stock reservation as a Seata TCC participant, MySQL as the durable record. */
package io.github.flashstock.inventory;
