/**
 * The TCC branch: the thin {@code @LocalTCC} action, the router that picks a {@code ReservationStore} (the Redis store
 * here, the MySQL store in {@code mysqlstore}), the outcomes and the one refusal exception, the Try coalescer, slot
 * groups, the sold-out shortcut, the wrappers of {@code try.lua}, {@code confirm.lua}, {@code cancel.lua} and
 * {@code peek.lua}, and the HTTP adapter ({@code web}).
 */
package io.github.flashstock.inventory.reservation;
