package io.github.flashstock.inventory.reservation.web;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;

/** Body of {@code POST /reservations}. Ids: 1-64 letters, digits, '.', '_' or '-'. */
record ReservationRequest(
        @NotBlank @Size(max = 64) @Pattern(regexp = ID) String reservationId,
        @NotBlank @Size(max = 64) @Pattern(regexp = ID) String userId,
        @NotEmpty @Size(max = ReservationRequest.MAX_LINES) List<@NotNull @Valid Line> lines) {

    /** The most lines a body may list, whatever {@code inventory.max-lines} says (which may be lower). */
    static final int MAX_LINES = 100;

    static final String ID = "[A-Za-z0-9._-]{1,64}";

    record Line(@NotBlank @Size(max = 64) @Pattern(regexp = ID) String skuId, @NotNull @Positive Integer quantity) {
    }
}
