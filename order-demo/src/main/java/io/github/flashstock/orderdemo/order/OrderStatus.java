package io.github.flashstock.orderdemo.order;

/** PENDING while its global transaction runs; CONFIRMED by its commit, CANCELLED by its rollback. */
public enum OrderStatus {
    PENDING, CONFIRMED, CANCELLED
}
