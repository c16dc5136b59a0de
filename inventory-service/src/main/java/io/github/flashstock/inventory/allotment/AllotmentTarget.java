package io.github.flashstock.inventory.allotment;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How large one SKU's allotment should be: a number of units ({@code "50"}) or a share of the SKU's available
 * units ({@code "10%"}; whole percent, 0 to 100). Either way never more than the SKU has available.
 */
public record AllotmentTarget(long units, int percent) {

    private static final Pattern UNITS = Pattern.compile("[0-9]{1,12}");
    private static final Pattern SHARE = Pattern.compile("([0-9]{1,3})\\s*%");

    public static final AllotmentTarget NONE = new AllotmentTarget(0, -1);

    public static AllotmentTarget ofUnits(long units) {
        return new AllotmentTarget(units, -1);
    }

    public static AllotmentTarget ofPercent(int percent) {
        return new AllotmentTarget(0, percent);
    }

    /** Parses {@code "50"} or {@code "10%"}; empty for anything else (negative, fractional, over 100 %). */
    public static Optional<AllotmentTarget> parse(String raw) {
        String value = raw == null ? "" : raw.trim();
        if (UNITS.matcher(value).matches()) {
            return Optional.of(ofUnits(Long.parseLong(value)));
        }
        Matcher share = SHARE.matcher(value);
        if (share.matches() && Integer.parseInt(share.group(1)) <= 100) {
            return Optional.of(ofPercent(Integer.parseInt(share.group(1))));
        }
        return Optional.empty();
    }

    public boolean isShare() {
        return percent >= 0;
    }

    /** Whether every SKU with this target has no allotment. */
    public boolean none() {
        return isShare() ? percent == 0 : units == 0;
    }

    /**
     * The allotment's size for a SKU with {@code available} units: neither sold nor held by open Tries, in either
     * store ({@code sku_stock}'s {@code stocked - sold - reserved}).
     */
    public long unitsFor(long available) {
        // a share rounded down, without overflowing for any count
        long wanted = isShare() ? available / 100 * percent + available % 100 * percent / 100 : units;
        return Math.max(0, Math.min(wanted, available));
    }

    /**
     * Whether an allotment of {@code current} units is far enough from {@code target} to move units: any difference
     * for a number of units; for a share, more than a tenth of the target (a share follows the stock as the sale
     * sells it, and each Try would otherwise cause a handover of a unit).
     */
    public boolean worthMoving(long current, long target) {
        long gap = Math.abs(target - current);
        if (gap == 0) {
            return false;
        }
        return !isShare() || target == 0 || gap * 10 > target;
    }

    @Override
    public String toString() {
        return isShare() ? percent + "%" : Long.toString(units);
    }
}
