/** The HTTP face of orders: placing, reading, and every failure as a ProblemDetail. */
package io.github.flashstock.orderdemo.order.web;
