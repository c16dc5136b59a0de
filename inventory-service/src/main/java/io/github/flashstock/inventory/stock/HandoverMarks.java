package io.github.flashstock.inventory.stock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handovers a rebuild of a SKU's Redis state settles (init, reload and rebuild scripts): operation id -> units
 * the rebuilt counters account for. The script marks them applied in the same call that writes the counters, so a
 * handover's Redis step that comes afterwards changes nothing.
 */
public record HandoverMarks(Map<String, Long> units, Duration remember) {

    public static final HandoverMarks NONE = new HandoverMarks(Map.of(), Duration.ofSeconds(1));

    public HandoverMarks {
        units = new LinkedHashMap<>(units);
    }

    /** The script arguments: the count, the seconds to remember them, then (operation id, units) pairs. */
    public List<String> args() {
        List<String> args = new ArrayList<>(2 + 2 * units.size());
        args.add(Integer.toString(units.size()));
        args.add(Long.toString(Math.max(1, remember.toSeconds())));
        units.forEach((operation, n) -> {
            args.add(operation);
            args.add(Long.toString(n));
        });
        return args;
    }
}
