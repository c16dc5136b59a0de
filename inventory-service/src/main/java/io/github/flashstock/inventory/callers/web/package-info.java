/** The filter that lets only signed calls of known services reach {@code POST /reservations}, and its registration. */
package io.github.flashstock.inventory.callers.web;
