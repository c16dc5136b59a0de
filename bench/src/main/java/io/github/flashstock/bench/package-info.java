/** Benchmarks: each measures the project's path beside a reference tool, in the same run, on the same machine. */
package io.github.flashstock.bench;
