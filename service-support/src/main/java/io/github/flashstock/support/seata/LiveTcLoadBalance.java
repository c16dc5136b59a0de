package io.github.flashstock.support.seata;

import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import org.apache.seata.common.loader.LoadLevel;
import org.apache.seata.common.util.NetUtil;
import org.apache.seata.core.rpc.netty.AbstractNettyRemotingClient;
import org.apache.seata.core.rpc.netty.RmNettyRemotingClient;
import org.apache.seata.core.rpc.netty.TmNettyRemotingClient;
import org.apache.seata.discovery.loadbalance.LoadBalance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which TC of several takes a call ({@code seata.client.load-balance.type: LiveTcLoadBalance}): one at random among
 * those this process holds an open connection to, and among all the registry lists when it holds none.
 * <p>
 * Seata's {@code RandomLoadBalance} picks among every TC the registry lists, and the registry lists a TC that died
 * for a few seconds more (Nacos drops it 2 to 4 s after a {@code kill -9}): every call sent to it meanwhile fails on
 * the client ("can not connect to services-server"), and Seata's client does not try another TC. Its connection,
 * though, closes at once, and the client drops it from its channel table at once: a TC without an open connection
 * is passed over from that moment. A TC that has just started (or come back) has no connection until the client's
 * reconnect timer opens one (every 10 s) and is chosen from then on.
 * <p>
 * The channel tables are the clients' own ({@code NettyClientChannelManager.getChannels()}, package-private), read
 * by reflection; should a Seata release rename it, the class logs that once and picks among all TCs, as
 * {@code RandomLoadBalance} does.
 */
@LoadLevel(name = LiveTcLoadBalance.NAME)
public class LiveTcLoadBalance implements LoadBalance {

    public static final String NAME = "LiveTcLoadBalance";

    private static final Logger log = LoggerFactory.getLogger(LiveTcLoadBalance.class);
    private static final Method CHANNELS = channelTable();

    @Override
    public <T> T select(List<T> invokers, String xid) {
        return pick(invokers, LiveTcLoadBalance::connected, ThreadLocalRandom.current());
    }

    /** One of {@code invokers} at random, among those {@code live}; among all when none is. */
    static <T> T pick(List<T> invokers, Predicate<Object> live, Random random) {
        if (invokers == null || invokers.isEmpty()) {
            return null;
        }
        List<T> up = invokers.stream().filter(live).toList();
        List<T> from = up.isEmpty() ? invokers : up;
        return from.get(random.nextInt(from.size()));
    }

    /** True when this process's TM or RM client has an open connection to the TC at {@code address}. */
    static boolean connected(Object address) {
        if (CHANNELS == null || !(address instanceof InetSocketAddress a)) {
            return true;
        }
        String key = NetUtil.toStringAddress(a);
        return open(TmNettyRemotingClient.getInstance(), key) || open(RmNettyRemotingClient.getInstance(), key);
    }

    /** Whether the channel tables can be read (false: every TC counts as connected, a plain random pick). */
    static boolean readsChannelTables() {
        return CHANNELS != null;
    }

    static boolean open(AbstractNettyRemotingClient client, String address) {
        try {
            Object table = CHANNELS.invoke(client.getClientChannelManager());
            Object channel = table instanceof Map<?, ?> m ? m.get(address) : null;
            // a Netty Channel, asked through reflection too: this module does not compile against Netty
            return channel != null && Boolean.TRUE.equals(channel.getClass().getMethod("isActive").invoke(channel));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true;
        }
    }

    private static Method channelTable() {
        try {
            Method m = Class.forName("org.apache.seata.core.rpc.netty.NettyClientChannelManager")
                    .getDeclaredMethod("getChannels");
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("Seata's client channel table cannot be read ({}): TCs are picked at random among all listed,"
                    + " a dead one included until the registry drops it", e.toString());
            return null;
        }
    }
}
