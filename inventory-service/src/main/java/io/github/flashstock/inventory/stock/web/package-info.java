/** HTTP adapters of stock: the stock view, the admin operations (bearer token) and the problem types. */
package io.github.flashstock.inventory.stock.web;
