/**
 * Who may call what: the services named with a signing key reserve stock, each request signed over its XID and body
 * ({@link io.github.flashstock.support.auth.ServiceSignature}); operators act with an admin token; everything else is
 * refused ({@code web.InventorySecurity}).
 */
package io.github.flashstock.inventory.callers;
