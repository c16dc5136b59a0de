package io.github.flashstock.inventory.stock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** Reads a SKU's stock, segments and fence records from Redis (for views and checks, never for decisions). */
@Component
public class RedisStockReader {

    private final StringRedisTemplate redis;

    public RedisStockReader(StringRedisTemplate redis) {
        this.redis = redis;
    }

    public Optional<RedisStock> read(String skuId) {
        List<Object> f = redis.opsForHash().multiGet(StockKeys.stock(skuId),
                List.of("stocked", "available", "reserved", "sold", "limit", "segments", "seg_span"));
        if (f.get(5) == null) {
            return Optional.empty();
        }
        int span = Integer.parseInt(String.valueOf(f.get(6) != null ? f.get(6) : f.get(5)));
        List<RedisStock.Segment> segments = new ArrayList<>();
        for (int i = 0; i < span; i++) {
            List<Object> s = redis.opsForHash().multiGet(StockKeys.segment(skuId, i), List.of("available", "reserved"));
            if (s.get(0) != null || s.get(1) != null) {
                segments.add(new RedisStock.Segment(i, num(s.get(0)), num(s.get(1))));
            }
        }
        return Optional.of(new RedisStock(skuId, num(f.get(0)), num(f.get(1)), num(f.get(2)), num(f.get(3)),
                (int) num(f.get(4)), (int) num(f.get(5)), segments));
    }

    /** A PING: whether Redis answers at all (the breaker's probe when there is nothing else to send). */
    public void ping() {
        String pong = redis.execute((org.springframework.data.redis.core.RedisCallback<String>) c -> c.ping());
        if (!"PONG".equalsIgnoreCase(pong)) {
            throw new IllegalStateException("Redis answered PING with " + pong);
        }
    }

    /** The fence record's state (TRIED, CONFIRMED, CANCELLED), if there is one. */
    public Optional<String> fenceState(String skuId, String xid, String reservationId) {
        Object state = redis.opsForHash().get(StockKeys.fence(skuId, xid, reservationId), "state");
        return Optional.ofNullable(state).map(String::valueOf);
    }

    /** Units the user holds of this SKU (tried or confirmed, not cancelled). */
    public long heldBy(String skuId, String userId) {
        String v = redis.opsForValue().get(StockKeys.buyer(skuId, userId));
        return v == null ? 0 : Long.parseLong(v);
    }

    /** A reservation still TRIED in Redis. */
    public record OpenReservation(String skuId, String xid, String reservationId, long quantity, String userId,
                                  long triedAtMillis) {
    }

    /** A Confirm that found no record and too few units (see {@code confirm.lua}, OVERSOLD). */
    public record OversoldConfirm(String skuId, String xid, String reservationId, long units) {
    }

    /** The SKU's oversold Confirms, as {@code confirm.lua} recorded them. */
    public List<OversoldConfirm> oversoldConfirms(String skuId) {
        List<OversoldConfirm> oversold = new ArrayList<>();
        for (Map.Entry<Object, Object> e : redis.opsForHash().entries(StockKeys.oversold(skuId)).entrySet()) {
            StockKeys.parseFence(skuId, String.valueOf(e.getKey())).ifPresent(f -> oversold.add(
                    new OversoldConfirm(skuId, f.xid(), f.reservationId(), num(e.getValue()))));
        }
        return oversold;
    }

    /** The reservations of this SKU that are still TRIED (from the SKU's open set, each checked in its record). */
    public List<OpenReservation> openReservations(String skuId) {
        List<OpenReservation> open = new ArrayList<>();
        for (String key : redis.opsForSet().members(StockKeys.open(skuId))) {
            Optional<StockKeys.Fence> fence = StockKeys.parseFence(skuId, key);
            List<Object> f = redis.opsForHash().multiGet(key, List.of("state", "quantity", "user", "tried_at"));
            if (fence.isEmpty() || !"TRIED".equals(f.get(0))) {
                continue;
            }
            open.add(new OpenReservation(skuId, fence.get().xid(), fence.get().reservationId(), num(f.get(1)),
                    String.valueOf(f.get(2)), num(f.get(3))));
        }
        return open;
    }

    private static long num(Object o) {
        return o == null ? 0 : Long.parseLong(String.valueOf(o));
    }
}
