/** HTTP adapters of the catalog: the stock view and the admin operations (both for the admin token). */
package io.github.flashstock.inventory.catalog.web;
