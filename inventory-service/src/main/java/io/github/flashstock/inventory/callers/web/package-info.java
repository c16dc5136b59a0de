/**
 * The inventory's filter chains, one per kind of caller and deny by default, and the service signature as a Spring
 * Security authentication.
 */
package io.github.flashstock.inventory.callers.web;
