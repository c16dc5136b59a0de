package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockLine;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lines as they travel in Seata's action context from the Try to the second phase: {@code sku*qty|sku*qty}.
 * SKU ids never contain {@code *} or {@code |} (the API only admits letters, digits and {@code ._-}).
 */
final class ReservationLines {

    private ReservationLines() {
    }

    static String encode(List<StockLine> lines) {
        return lines.stream().map(l -> l.skuId() + "*" + l.quantity()).collect(Collectors.joining("|"));
    }

    static List<StockLine> decode(String encoded) {
        return Arrays.stream(encoded.split("\\|")).map(part -> {
            int star = part.lastIndexOf('*');
            return new StockLine(part.substring(0, star), Integer.parseInt(part.substring(star + 1)));
        }).toList();
    }
}
