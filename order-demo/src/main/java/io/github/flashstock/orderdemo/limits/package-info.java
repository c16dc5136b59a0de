/** How many orders one buyer and one client address may place: token buckets shared by every order-demo instance. */
package io.github.flashstock.orderdemo.limits;
