/**
 * The MySQL store: Tries, phases and refusals of the reservations it holds, within its rate limit, and the mirror that
 * tells Redis what it did. It is a {@code reservation.ReservationStore}; the router decides when it is asked.
 */
package io.github.flashstock.inventory.mysqlstore;
