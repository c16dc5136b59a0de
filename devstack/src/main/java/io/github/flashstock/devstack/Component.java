package io.github.flashstock.devstack;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The servers the devstack can run. */
public enum Component {
    REDIS,
    /** Three masters and three replicas; started only on request. */
    REDIS_CLUSTER,
    /** A primary, its replica and three Sentinels; started only on request. */
    REDIS_SENTINEL,
    MARIADB,
    SEATA,
    ROCKETMQ,
    /** Configuration and discovery for the services (and, on request, the Seata TC's registry). */
    NACOS;

    /** What {@code up} starts when nothing more is asked for. */
    public static Set<Component> defaults() {
        return EnumSet.of(REDIS, MARIADB, SEATA, ROCKETMQ, NACOS);
    }

    /** {@code redis-cluster} → {@link #REDIS_CLUSTER}. */
    public static Component parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
