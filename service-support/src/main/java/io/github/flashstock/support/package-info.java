/** What both services share at start-up: where their configuration comes from and how they find each other. */
package io.github.flashstock.support;
