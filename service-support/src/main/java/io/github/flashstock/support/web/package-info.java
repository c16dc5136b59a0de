/** The problem vocabulary both services answer with: stable {@code urn:flashstock:problem:*} types, one way to report bad input. */
package io.github.flashstock.support.web;
