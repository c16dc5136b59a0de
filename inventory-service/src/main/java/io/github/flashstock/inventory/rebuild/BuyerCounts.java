package io.github.flashstock.inventory.rebuild;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the durable record says of a SKU's buyers, for {@code lua/rebuild.lua}: the MySQL store's rows of the SKU (the
 * script gives each the record {@code lua/mirror.lua} would), and each buyer's units (CONFIRMED rows of both stores
 * and the MySQL store's TRIED ones), which become the buyers' counts in Redis before the SKU sells again.
 */
public record BuyerCounts(List<MysqlRow> rows, Map<String, Long> buyers) {

    /** One row of the MySQL store: its fence key in Redis, units, buyer, state. */
    public record MysqlRow(String fence, long units, String userId, String state) {
    }

    public static final BuyerCounts NONE = new BuyerCounts(List.of(), Map.of());

    public BuyerCounts {
        rows = List.copyOf(rows);
        buyers = Map.copyOf(buyers);
    }

    /** The script's arguments: the rows' count and quadruples, then the buyers' count and pairs. */
    List<String> args() {
        List<String> args = new ArrayList<>(2 + 4 * rows.size() + 2 * buyers.size());
        args.add(Integer.toString(rows.size()));
        for (MysqlRow row : rows) {
            args.add(row.fence());
            args.add(Long.toString(row.units()));
            args.add(row.userId());
            args.add(row.state());
        }
        args.add(Integer.toString(buyers.size()));
        buyers.forEach((user, units) -> {
            args.add(user);
            args.add(Long.toString(units));
        });
        return args;
    }
}
