package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.orderdemo.order.OrderItem;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * {@code POST /orders} body: what to buy, never who buys it; the buyer is the subject of the request's buyer token.
 * A body with any other field, {@code userId} included, is refused (400), so that no caller can believe it chose
 * the buyer.
 */
record OrderRequest(@NotEmpty @Size(max = 100) List<@Valid OrderItem> items) {
}
