/**
 * Reconciliation between Redis, MySQL, the ledger and the TC: checks that find drift, the reports they publish,
 * and the audited repairs an operator triggers. The TCC path never depends on it.
 */
package io.github.flashstock.inventory.reconciliation;
