package io.github.flashstock.inventory.reservation;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** Runs {@code lua/confirm.lua} for one SKU of one reservation. */
@Component
public class ConfirmScript extends SecondPhaseScript {

    public ConfirmScript(StringRedisTemplate redis) {
        super(redis, "confirm.lua");
    }
}
