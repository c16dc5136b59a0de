/** Orders: the order branch (TCC with Seata's fence) and the use case that places an order. */
package io.github.flashstock.orderdemo.order;
