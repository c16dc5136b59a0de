package io.github.flashstock.support.seata;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.seata.discovery.loadbalance.LoadBalance;
import org.apache.seata.common.loader.EnhancedServiceLoader;
import org.junit.jupiter.api.Test;

class LiveTcLoadBalanceTest {

    private static final InetSocketAddress ALIVE = new InetSocketAddress("127.0.0.1", 18091);
    private static final InetSocketAddress DEAD = new InetSocketAddress("127.0.0.1", 18092);
    private static final InetSocketAddress OTHER = new InetSocketAddress("127.0.0.1", 18093);

    @Test
    void aTcWithoutAConnectionIsNeverPickedWhileAnotherHasOne() {
        Random random = new Random(1);
        for (int i = 0; i < 1000; i++) {
            assertThat(LiveTcLoadBalance.pick(List.of(DEAD, ALIVE), a -> a == ALIVE, random)).isSameAs(ALIVE);
        }
    }

    @Test
    void theConnectedOnesShareTheCallsAndWithNoneConnectedAllDo() {
        Random random = new Random(2);
        Set<Object> picked = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            picked.add(LiveTcLoadBalance.pick(List.of(DEAD, ALIVE, OTHER), a -> a != DEAD, random));
        }
        assertThat(picked).containsExactlyInAnyOrder(ALIVE, OTHER);
        picked.clear();
        for (int i = 0; i < 200; i++) {
            picked.add(LiveTcLoadBalance.pick(List.of(DEAD, ALIVE, OTHER), a -> false, random));
        }
        assertThat(picked).containsExactlyInAnyOrder(DEAD, ALIVE, OTHER);
        Object none = LiveTcLoadBalance.pick(List.of(), a -> true, random);
        assertThat(none).isNull();
    }

    @Test
    void theSeataOnTheClasspathLetsItReadTheChannelTables() {
        // a Seata release without NettyClientChannelManager.getChannels() would turn the class into a random pick
        assertThat(LiveTcLoadBalance.readsChannelTables()).isTrue();
        // nothing listens on port 1, and no client of this JVM has a connection there
        assertThat(LiveTcLoadBalance.connected(new InetSocketAddress("127.0.0.1", 1))).isFalse();
    }

    @Test
    void seataFindsItByTheNameTheServicesConfigure() {
        assertThat(EnhancedServiceLoader.load(LoadBalance.class, LiveTcLoadBalance.NAME))
                .isInstanceOf(LiveTcLoadBalance.class);
    }
}
