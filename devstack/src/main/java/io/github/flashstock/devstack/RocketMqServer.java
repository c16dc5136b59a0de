package io.github.flashstock.devstack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A RocketMQ name server and one broker (5.5.0), each in a JVM of its own, with small store files and heaps.
 * Ready means: the broker's route for {@code TBW102} is registered at the name server, and the configured
 * topics exist (created up front, so consumers need not wait for the 30 s route poll).
 */
final class RocketMqServer extends Server {

    RocketMqServer(DevStackConfig config) {
        super(config);
    }

    @Override
    String name() {
        return "rocketmq";
    }

    @Override
    List<Integer> ports() {
        int broker = config.brokerPort();
        return List.of(config.namesrvPort(), broker, broker - 2, broker + 1);
    }

    /**
     * The broker's HA port (broker port + 1), where replicas would connect: RocketMQ 5.5.0's
     * {@code DefaultHAService.AcceptSocketService} binds {@code new InetSocketAddress(haListenPort)}, every interface,
     * and {@code bindAddress} applies to its remoting ports only. Every broker with a local store opens it, replicas or
     * not. The name server's port and the broker's two remoting ports follow {@code bindAddress} (127.0.0.1).
     */
    @Override
    List<Integer> portsOnEveryInterface() {
        return List.of(config.brokerPort() + 1);
    }

    @Override
    int processCount() {
        return 2;
    }

    String namesrvAddress() {
        return "127.0.0.1:" + config.namesrvPort();
    }

    @Override
    List<String> javaProcesses() {
        return List.of("namesrv", "broker");
    }

    @Override
    void launch() {
        ensureDir(dir());
        write(dir().resolve("namesrv.properties"), """
                listenPort=%d
                bindAddress=127.0.0.1
                rocketmqHome=%s
                kvConfigPath=%s
                configStorePath=%s
                """.formatted(config.namesrvPort(), dir(), dir().resolve("namesrv/kvConfig.json"),
                dir().resolve("namesrv/namesrv.properties")));
        write(dir().resolve("broker.properties"), """
                brokerClusterName=DevStackCluster
                brokerName=devstack-broker
                brokerId=0
                namesrvAddr=%s
                brokerIP1=127.0.0.1
                bindAddress=127.0.0.1
                listenPort=%d
                haListenPort=%d
                rocketmqHome=%s
                storePathRootDir=%s
                storePathCommitLog=%s
                autoCreateTopicEnable=true
                flushDiskType=ASYNC_FLUSH
                mappedFileSizeCommitLog=16777216
                mappedFileSizeConsumeQueue=60000
                mappedFileSizeTimerLog=4194304
                maxHashSlotNum=4000
                maxIndexNum=1000
                timerWheelEnable=false
                # Consumer retries wait levels 3, 4, 5, ... of this table (stock RocketMQ: 10s 30s 1m ...). Short
                # here, so that a message reaches its group's dead-letter queue within seconds in tests.
                messageDelayLevel=1s 1s 1s 1s 2s 2s 3s 5s 10s 30s 1m 2m 3m 4m 5m 10m 20m 30m
                fileReservedTime=24
                diskMaxUsedSpaceRatio=95
                """.formatted(namesrvAddress(), config.brokerPort(), config.brokerPort() + 1, dir(),
                dir().resolve("store"), dir().resolve("store/commitlog")));
        Processes.launch(jvm("namesrv", "-Xmx160m", "org.apache.rocketmq.namesrv.NamesrvStartup", "namesrv.properties"),
                dir(), log("namesrv"), pidFile("namesrv"), Map.of());
        Processes.await("the RocketMQ name server on port " + config.namesrvPort(), config.startTimeout(),
                () -> Processes.accepts(config.namesrvPort()));
        launchBroker();
    }

    private void launchBroker() {
        Processes.launch(jvm("broker", "-Xmx320m", "org.apache.rocketmq.broker.BrokerStartup", "broker.properties"),
                dir(), log("broker"), pidFile("broker"), Map.of());
    }

    /**
     * A broker that died while its name server lives is started alone: restarting the name server too would make
     * every client look up its routes again for nothing. (A dead name server with a live broker: both restart.)
     */
    @Override
    boolean launchMissing() {
        boolean namesrv = Processes.livePid(pidFile("namesrv"), marker()).isPresent();
        boolean broker = Processes.livePid(pidFile("broker"), marker()).isPresent();
        if (!namesrv || broker) {
            return false;
        }
        List<Integer> busy = List.of(config.brokerPort(), config.brokerPort() - 2, config.brokerPort() + 1).stream()
                .filter(p -> !Processes.isFree(p)).toList();
        if (!busy.isEmpty()) {
            throw new IllegalStateException("broker ports " + busy + " are held by another process");
        }
        launchBroker();
        return true;
    }

    private List<String> jvm(String process, String heap, String mainClass, String configFile) {
        List<String> cmd = new ArrayList<>(List.of(javaExecutable(),
                "-Xms64m", heap, "-XX:MaxDirectMemorySize=256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(classData(process));
        cmd.addAll(List.of(
                "-Ddevstack.home=" + marker(),
                // logs under the server directory, not ~/logs/rocketmqlogs
                "-Duser.home=" + dir(),
                "-Drocketmq.home.dir=" + dir(),
                // TLS off: otherwise the first start spends seconds generating a certificate
                "-Dtls.server.mode=disabled",
                "-cp", Runtimes.classpath("rocketmq"),
                mainClass, "-c", dir().resolve(configFile).toString()));
        return cmd;
    }

    @Override
    void awaitReady() {
        Processes.await("the RocketMQ broker on port " + config.brokerPort(), config.startTimeout(),
                () -> Processes.accepts(config.brokerPort()));
        RocketMqProbe.awaitRouteAndCreateTopics(namesrvAddress(), config.topics(), config.startTimeout(), dir());
    }

    @Override
    boolean healthy() {
        return Processes.accepts(config.namesrvPort()) && Processes.accepts(config.brokerPort())
                && RocketMqProbe.hasRoute(namesrvAddress(), "TBW102", dir());
    }
}
