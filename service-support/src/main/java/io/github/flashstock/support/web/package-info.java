/**
 * What both services' HTTP side shares: who the admin is and what only the admin may do ({@link
 * io.github.flashstock.support.web.AdminGuard}), the problem vocabulary they answer with (stable
 * {@code urn:flashstock:problem:*} types), one way to report bad input.
 */
package io.github.flashstock.support.web;
