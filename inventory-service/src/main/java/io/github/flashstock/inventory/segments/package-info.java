/** Hot-SKU segment counts as live configuration: validated, and applied to Redis with the resegment script. */
package io.github.flashstock.inventory.segments;
