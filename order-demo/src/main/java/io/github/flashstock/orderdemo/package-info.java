/** The reference order service: places orders in Seata global transactions and reserves their stock over HTTP. */
package io.github.flashstock.orderdemo;
