package io.github.flashstock.orderdemo.order;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** One line of an order. */
public record OrderItem(@NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._-]{1,64}") String skuId,
                        @Positive @Max(1000) int quantity) {
}
