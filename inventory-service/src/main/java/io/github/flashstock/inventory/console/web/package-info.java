/** The console's HTTP API: {@code /admin/console/*} readings and {@code PUT /admin/skus/{id}/settings}. */
package io.github.flashstock.inventory.console.web;
