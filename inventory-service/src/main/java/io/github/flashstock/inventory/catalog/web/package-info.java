/** HTTP adapters of stock: the stock view and the admin operations (both for the admin token) and the problem types. */
package io.github.flashstock.inventory.stock.web;
