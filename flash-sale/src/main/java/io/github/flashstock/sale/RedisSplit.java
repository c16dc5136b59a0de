package io.github.flashstock.sale;

import java.time.Instant;

/**
 * The second inventory-service instance cut off from Redis (the TCP proxy it reaches Redis through closed) while the
 * first still reaches it; the proxy restored after the outage.
 */
final class RedisSplit implements Fault {

    @Override
    public Hit inject(Scene scene) {
        ServiceProcess cut = scene.services().inventories().get(1);
        Instant at = Instant.now();
        scene.redisProxy().get().cut();
        return new Hit(at, cut.name() + " cut off from Redis (the TCP proxy between them closed) for "
                + scene.outage().toSeconds() + " s, " + scene.services().inventories().get(0).name()
                + " still reaching it");
    }

    @Override
    public String heal(Scene scene) {
        scene.redisProxy().get().restore();
        return "";
    }
}
