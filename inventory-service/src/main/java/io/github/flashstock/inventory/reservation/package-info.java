/**
 * Reserving stock as a Seata TCC branch: the Try, Confirm and Cancel of a reservation, their Lua script wrappers
 * ({@code try.lua}, {@code confirm.lua}, {@code cancel.lua}), the Try coalescer, the outcomes, and the HTTP adapter.
 */
package io.github.flashstock.inventory.reservation;
