/** Failures injected on purpose, for tests and the demo only: off unless the {@code faults} profile is active. */
package io.github.flashstock.orderdemo.faults;
