/**
 * What both services' security shares: the admin's bearer token as a Spring Security authentication whose principal
 * is the admin's name ({@link io.github.flashstock.support.security.AdminTokenIntrospector}), refusals as problem
 * documents ({@link io.github.flashstock.support.security.Refusals}), the throttle on failed sign-ins
 * ({@link io.github.flashstock.support.security.SignInThrottle}), the response headers every answer carries, and the
 * operator chain's rules ({@link io.github.flashstock.support.security.ServiceSecurity}).
 */
package io.github.flashstock.support.security;
