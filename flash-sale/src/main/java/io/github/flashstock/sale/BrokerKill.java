package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

/**
 * The RocketMQ broker kill -9 (its name server keeps running), and a second later the first inventory-service
 * instance with the stock events it could not send yet; both back after the outage.
 */
final class BrokerKill implements Fault {

    private ServiceProcess victim;

    @Override
    public Hit inject(Scene scene) {
        Instant at = Instant.now();
        List<Long> pids = scene.stack().kill(Component.ROCKETMQ, "broker");
        // a second of sale without a broker: the instance's forwarder takes events it cannot send
        ServiceProcess.sleep(Duration.ofSeconds(1));
        victim = scene.services().inventories().get(0);
        long pid = victim.pid();
        victim.kill();
        return new Hit(at, "RocketMQ broker (PID " + pids + ") killed, 1 s later " + victim.name() + " (PID " + pid
                + ") killed");
    }

    @Override
    public String heal(Scene scene) {
        scene.stack().up(EnumSet.of(Component.ROCKETMQ));
        victim.start(Duration.ofMinutes(3));
        return "";
    }
}
