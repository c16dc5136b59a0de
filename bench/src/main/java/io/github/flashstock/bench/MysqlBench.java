package io.github.flashstock.bench;

import com.baomidou.mybatisplus.core.MybatisConfiguration;
import com.baomidou.mybatisplus.spring.MybatisSqlSessionFactoryBean;
import com.zaxxer.hikari.HikariDataSource;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.inventory.allotment.AllotmentLevels;
import io.github.flashstock.inventory.mysqlstore.MysqlReservations;
import io.github.flashstock.inventory.mysqlstore.MysqlStoreCoalescing;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.github.flashstock.inventory.stock.StockLine;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.mybatis.spring.SqlSessionTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * The service's MySQL store in-process, as the Try path runs it while Redis cannot take Tries:
 * {@link MysqlReservations} over MyBatis-Plus, Spring's transactions and HikariCP, with the service's settings (READ
 * COMMITTED connections, one pool connection per caller, the Tries of one SKU coalesced as
 * {@code inventory.mysql-store.coalescing}'s defaults gather them), against the devstack's MariaDB. Each run takes a
 * SKU of its own whose whole stock is in its allotment, and removes it and its ledger rows afterwards.
 */
final class MysqlBench implements AutoCloseable {

    private final HikariDataSource dataSource;
    private final MysqlReservations store;
    private final JdbcTemplate jdbc;
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private volatile double lastMeanBatch;

    MysqlBench(Endpoints e, int connections) throws Exception {
        this(e, connections, new MysqlStoreCoalescing(32, 2, Duration.ofSeconds(3)));
    }

    MysqlBench(Endpoints e, int connections, MysqlStoreCoalescing coalescing) throws Exception {
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(e.jdbcUrl("inventory"));
        dataSource.setUsername(e.dbUser("inventory"));
        dataSource.setPassword(e.dbPassword());
        dataSource.setMaximumPoolSize(connections);
        dataSource.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        dataSource.addDataSourceProperty("allowMultiQueries", "true");
        // MyBatis-Plus's configuration, as in the service: the mappers' BaseMapper statements (SkuStockMapper.find)
        MybatisConfiguration mybatis = new MybatisConfiguration();
        mybatis.setMapUnderscoreToCamelCase(true);
        mybatis.addMapper(SkuStockMapper.class);
        mybatis.addMapper(StockLedgerMapper.class);
        MybatisSqlSessionFactoryBean factory = new MybatisSqlSessionFactoryBean();
        factory.setDataSource(dataSource);
        factory.setConfiguration(mybatis);
        SqlSessionTemplate sessions = new SqlSessionTemplate(factory.getObject());
        store = new MysqlReservations(sessions.getMapper(SkuStockMapper.class),
                sessions.getMapper(StockLedgerMapper.class), new DataSourceTransactionManager(dataSource), dataSource,
                new AllotmentLevels(meters), coalescing, meters,
                io.github.resilience4j.retry.RetryRegistry.ofDefaults());
        store.afterPropertiesSet();
        jdbc = new JdbcTemplate(dataSource);
    }

    /**
     * {@code requests} Tries of one unit each on one hot SKU, from {@code clients} threads, each a new reservation of
     * one of 100,000 buyers; with {@code perUserLimit} the SKU has that limit, so that each Try also counts the
     * buyer's units in both stores.
     */
    RedisBench.Result tries(int clients, int requests, Integer perUserLimit) throws Exception {
        String sku = "bench-mysql-" + UUID.randomUUID();
        jdbc.update("INSERT INTO sku_stock (sku_id, stocked, allotment_available, per_user_limit) VALUES (?, ?, ?, ?)",
                sku, 1_000_000_000L, 1_000_000_000L, perUserLimit);
        DistributionSummary before = meters.summary("inventory.mysql-store.batch.size");
        double unitsBefore = before.totalAmount();
        long callsBefore = before.count();
        try {
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            AtomicLong next = new AtomicLong();
            CountDownLatch start = new CountDownLatch(1);
            List<StockLine> line = List.of(new StockLine(sku, 1));
            long[] nanos = new long[requests];
            String run = UUID.randomUUID().toString().substring(0, 8);
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < clients; w++) {
                workers.add(pool.submit(() -> {
                    start.await();
                    for (long i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                        long t = System.nanoTime();
                        TryOutcome o = store.reserve(new TryRequest("bench-" + run + "-" + i, "r-" + i, i,
                                "u-" + (i % 100_000), line), false);
                        nanos[(int) i] = System.nanoTime() - t;
                        if (!(o instanceof TryOutcome.Reserved)) {
                            throw new IllegalStateException("unexpected " + o);
                        }
                    }
                    return null;
                }));
            }
            long t0 = System.nanoTime();
            start.countDown();
            for (Future<?> f : workers) {
                f.get(10, TimeUnit.MINUTES);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            pool.shutdown();
            Arrays.sort(nanos);
            DistributionSummary batches = meters.summary("inventory.mysql-store.batch.size");
            lastMeanBatch = (batches.totalAmount() - unitsBefore) / Math.max(1, batches.count() - callsBefore);
            return new RedisBench.Result(requests / seconds, nanos[(int) Math.ceil(0.99 * requests) - 1] / 1e6, 0);
        } finally {
            jdbc.update("DELETE FROM stock_ledger WHERE sku_id = ?", sku);
            jdbc.update("DELETE FROM sku_stock WHERE sku_id = ?", sku);
        }
    }

    /** Tries per transaction in the last run of {@link #tries}, on average. */
    double lastMeanBatch() {
        return lastMeanBatch;
    }

    @Override
    public void close() {
        store.destroy();
        dataSource.close();
    }
}
