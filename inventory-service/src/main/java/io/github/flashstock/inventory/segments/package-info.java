/**
 * Hot-SKU segment counts as live configuration: read from Nacos or the local files, validated, and applied to
 * Redis with {@code resegment.lua}.
 */
package io.github.flashstock.inventory.segments;
