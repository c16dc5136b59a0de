/**
 * Who may reserve stock: the services named with a signing key, each request signed over its XID and body
 * ({@link io.github.flashstock.support.auth.ServiceSignature}).
 */
package io.github.flashstock.inventory.callers;
