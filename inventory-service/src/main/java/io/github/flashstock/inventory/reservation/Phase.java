package io.github.flashstock.inventory.reservation;

import java.util.Locale;

/** The two second phases of a reservation; {@link #tag()} is the name in metrics and logs. */
public enum Phase {
    CONFIRM, CANCEL;

    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
