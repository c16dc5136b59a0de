package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.seata.rm.tcc.api.BusinessActionContextParameter;

/**
 * A reservation's lines, checked and merged once, where a request becomes a reservation: one line per SKU, in order
 * of first appearance ({@code try.lua} checks each line against the stock alone, so two lines of one SKU must be
 * one). The Try receives this object; Seata keeps only {@link #encoded} in the branch's action context
 * ({@code sku*qty|sku*qty}), from which the Confirm and Cancel, possibly on another instance, read the lines back.
 * SKU ids never contain {@code *} or {@code |} (the API admits letters, digits and {@code ._-} only).
 */
public final class ReservationLines {

    private final List<StockLine> lines;

    /** Read by Seata's TCC interceptor ({@code isParamInProperty} on the Try's parameter) into the context. */
    @BusinessActionContextParameter(paramName = "lines")
    private final String encoded;

    private ReservationLines(List<StockLine> lines) {
        this.lines = List.copyOf(lines);
        this.encoded = lines.stream().map(l -> l.skuId() + "*" + l.quantity()).collect(Collectors.joining("|"));
    }

    /**
     * The requested lines, merged per SKU and checked against the limits.
     *
     * @throws InvalidLines when there are more than {@code maxLines} lines, or a SKU's merged quantity is above
     *                      {@code maxQuantityPerLine}
     */
    public static ReservationLines of(List<StockLine> requested, int maxLines, int maxQuantityPerLine) {
        if (requested.isEmpty()) {
            throw new InvalidLines("a reservation needs at least one line");
        }
        if (requested.size() > maxLines) {
            throw new InvalidLines("a reservation may have at most " + maxLines + " lines, this one has "
                    + requested.size());
        }
        Map<String, Long> merged = new LinkedHashMap<>();
        for (StockLine line : requested) {
            merged.merge(line.skuId(), (long) line.quantity(), Long::sum);
        }
        List<StockLine> lines = new ArrayList<>(merged.size());
        merged.forEach((sku, quantity) -> {
            if (quantity > maxQuantityPerLine) {
                throw new InvalidLines("quantity of " + sku + " is " + quantity + "; at most " + maxQuantityPerLine
                        + " per SKU");
            }
            lines.add(new StockLine(sku, quantity.intValue()));
        });
        return new ReservationLines(lines);
    }

    /** The lines a Try recorded in its action context (by {@link #encoded}). */
    static ReservationLines decode(String encoded) {
        return new ReservationLines(Arrays.stream(encoded.split("\\|")).map(part -> {
            int star = part.lastIndexOf('*');
            return new StockLine(part.substring(0, star), Integer.parseInt(part.substring(star + 1)));
        }).toList());
    }

    /** One line per SKU. */
    public List<StockLine> lines() {
        return lines;
    }

    String encoded() {
        return encoded;
    }

    @Override
    public String toString() {
        return encoded;
    }

    /** Lines a reservation may not have (limits from configuration); nothing was reserved. */
    public static final class InvalidLines extends RuntimeException {
        InvalidLines(String message) {
            super(message, null, false, false);
        }
    }
}
