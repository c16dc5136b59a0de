/**
 * Who is buying: the subject of a signed buyer token (a JWT), checked before any order code runs; never a field of
 * the request body.
 */
package io.github.flashstock.orderdemo.buyers;
