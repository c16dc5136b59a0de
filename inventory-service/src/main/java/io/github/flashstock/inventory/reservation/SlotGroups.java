package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Splits a reservation's lines into the groups one script may run on: on a Redis Cluster one group per hash
 * slot (a script cannot touch two slots), on a standalone Redis a single group, so the Try stays one atomic
 * all-or-nothing script.
 */
@Component
class SlotGroups {

    private final boolean cluster;

    @Autowired
    SlotGroups(RedisConnectionFactory connections) {
        this(connections instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware());
    }

    SlotGroups(boolean cluster) {
        this.cluster = cluster;
    }

    List<List<StockLine>> of(List<StockLine> lines) {
        if (!cluster || lines.size() == 1) {
            return List.of(lines);
        }
        Map<Integer, List<StockLine>> bySlot = new LinkedHashMap<>();
        for (StockLine line : lines) {
            bySlot.computeIfAbsent(ClusterSlotHashUtil.calculateSlot(StockKeys.stock(line.skuId())),
                    slot -> new ArrayList<>()).add(line);
        }
        return List.copyOf(bySlot.values());
    }
}
