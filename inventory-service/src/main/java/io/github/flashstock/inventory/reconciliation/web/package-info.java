/**
 * HTTP adapter of reconciliation: runs, their reports and the repairs (audited under the admin who asked), under
 * {@code /admin}.
 */
package io.github.flashstock.inventory.reconciliation.web;
