/** Reserving stock as a Seata TCC branch: the Try, Confirm and Cancel of a reservation, and its HTTP adapter. */
package io.github.flashstock.inventory.reservation;
