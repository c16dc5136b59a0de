/**
 * What both services' HTTP side shares: the admins' tokens ({@link io.github.flashstock.support.web.AdminTokens}), the
 * problem vocabulary they answer with (stable {@code urn:flashstock:problem:*} types), one way to report bad input, the
 * request size limits.
 */
package io.github.flashstock.support.web;
