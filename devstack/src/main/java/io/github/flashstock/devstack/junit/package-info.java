/**
 * The JUnit 5 fixture: {@link io.github.flashstock.devstack.junit.DevStackTest} on a test class makes sure the
 * stack runs, starting it at most once per build and sharing it across test classes and Maven modules.
 */
package io.github.flashstock.devstack.junit;
