/** HTTP adapter of reconciliation: runs, their reports and the repairs, under {@code /admin}. */
package io.github.flashstock.inventory.reconciliation.web;
