/** The inventory service as seen from here: one HTTP call, by service name, inside the caller's global transaction. */
package io.github.flashstock.orderdemo.inventory;
