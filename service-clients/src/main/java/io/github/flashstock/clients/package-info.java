/**
 * Typed clients of the two services' HTTP APIs, for everything of the harness that calls them as an outsider would:
 * {@link io.github.flashstock.clients.InventoryApi} (operator, buyer and Try calls of inventory-service) and
 * {@link io.github.flashstock.clients.OrdersApi} (a buyer's calls of order-demo). One HTTP client and one JSON mapper
 * for all ({@link io.github.flashstock.clients.ServiceHttp}); an answer other than the one a call expects is a
 * {@link io.github.flashstock.clients.ServiceProblem} with its status and problem document.
 */
package io.github.flashstock.clients;
