/**
 * The catalog of SKUs: creating, restocking and reloading them, the warm-up at start, and the stock and admin HTTP
 * API ({@code web}).
 */
package io.github.flashstock.inventory.catalog;
