package io.github.flashstock.sale;

import java.time.Duration;
import java.time.Instant;

/**
 * The second inventory-service instance cut off from Redis (the TCP proxy it reaches Redis through closed) while the
 * first still reaches it; the proxy restored after the outage.
 */
final class RedisSplit implements Fault {

    private final Duration outage;

    RedisSplit(Duration outage) {
        this.outage = outage;
    }

    @Override
    public Hit inject(Scene scene) {
        ServiceProcess cut = scene.services().inventories().get(1);
        Instant at = Instant.now();
        scene.redisProxy().get().cut();
        return new Hit(at, cut.name() + " cut off from Redis (the TCP proxy between them closed) for "
                + outage.toSeconds() + " s, " + scene.services().inventories().get(0).name() + " still reaching it");
    }

    @Override
    public Duration outage() {
        return outage;
    }

    @Override
    public String heal(Scene scene) {
        scene.redisProxy().get().restore();
        return "";
    }
}
