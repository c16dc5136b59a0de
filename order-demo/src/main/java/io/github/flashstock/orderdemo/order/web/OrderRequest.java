package io.github.flashstock.orderdemo.order.web;

import io.github.flashstock.orderdemo.order.OrderItem;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/** {@code POST /orders} body. */
record OrderRequest(@NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._-]{1,64}") String userId,
                    @NotEmpty @Size(max = 100) List<@Valid OrderItem> items) {
}
