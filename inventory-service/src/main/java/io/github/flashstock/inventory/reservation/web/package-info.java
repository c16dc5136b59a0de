/** HTTP adapter of reservations and the translation of every refusal into a {@code ProblemDetail}. */
package io.github.flashstock.inventory.reservation.web;
