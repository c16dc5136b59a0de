/** Problems more than one room answers with over HTTP. */
package io.github.flashstock.inventory.stock.web;
