package io.github.flashstock.inventory.reconciliation;

import io.github.flashstock.inventory.allotment.HandoverRow;
import io.github.flashstock.inventory.allotment.StockHandoverMapper;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.RedisStockReader;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * Compares, per SKU, Redis (available, reserved, sold), MySQL's {@code sku_stock} and the ledger, and reports every
 * disagreement; it never repairs (see {@link Repairs}). Runs on a schedule and on demand; the latest report is
 * kept, published to RocketMQ and counted per finding kind.
 */
@Service
public class Reconciler {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    /** Ages of reservations and sessions; the stores' own times come from the Redis server and the TC. */
    private final Clock clock;
    private final SkuStockMapper skus;
    private final StockLedgerMapper ledger;
    private final StockHandoverMapper handovers;
    private final RedisStockReader redis;
    private final SeataTransactions transactions;
    private final ReconciliationSettings settings;
    private final ObjectProvider<RocketMQTemplate> rocketmq;
    private final MeterRegistry meters;
    private final AtomicReference<ReconciliationReport> latest = new AtomicReference<>();

    Reconciler(SkuStockMapper skus, StockLedgerMapper ledger, StockHandoverMapper handovers, RedisStockReader redis,
               SeataTransactions transactions, ReconciliationSettings settings,
               ObjectProvider<RocketMQTemplate> rocketmq, MeterRegistry meters, Clock clock) {
        this.handovers = handovers;
        this.clock = clock;
        this.skus = skus;
        this.ledger = ledger;
        this.redis = redis;
        this.transactions = transactions;
        this.settings = settings;
        this.rocketmq = rocketmq;
        this.meters = meters;
    }

    @Scheduled(initialDelayString = "${inventory.reconciliation.interval}",
            fixedDelayString = "${inventory.reconciliation.interval}")
    void scheduled() {
        try {
            run();
        } catch (RuntimeException e) {
            log.warn("scheduled reconciliation failed: {}", e.toString());
        }
    }

    public Optional<ReconciliationReport> latest() {
        return Optional.ofNullable(latest.get());
    }

    /** One run over every SKU MySQL knows. */
    public synchronized ReconciliationReport run() {
        Instant started = clock.instant();
        List<String> ids = skus.skuIds();
        List<Finding> findings = new ArrayList<>();
        for (String sku : ids) {
            findings.addAll(check(sku, false));
        }
        findings.addAll(mysqlStore());
        findings.addAll(overdueSessions());
        ReconciliationReport report = new ReconciliationReport(UUID.randomUUID().toString(), started, clock.instant(),
                ids.size(), List.copyOf(findings));
        latest.set(report);
        findings.forEach(f -> meters.counter("inventory.reconciliation.findings", "kind", f.kind().name()).increment());
        meters.counter("inventory.reconciliation.runs").increment();
        RocketMQTemplate mq = rocketmq.getIfAvailable();
        if (mq != null) {
            try {
                mq.syncSend(settings.reportTopic(), report);
            } catch (RuntimeException e) {
                log.warn("reconciliation report {} not published: {}", report.runId(), e.toString());
            }
        }
        log.info("reconciliation {}: {} SKU(s), {} finding(s)", report.runId(), ids.size(), findings.size());
        return report;
    }

    /** Buyers above the SKU's per-user limit across both stores' sales ({@link Finding.Kind#LIMIT_EXCESS}). */
    private Optional<Finding> limitExcess(String sku, SkuStockRow row) {
        if (row.perUserLimit() == null || row.perUserLimit() <= 0) {
            return Optional.empty();
        }
        List<Map<String, Object>> above = ledger.aboveLimit(sku, row.perUserLimit());
        if (above.isEmpty()) {
            return Optional.empty();
        }
        long excess = above.stream().mapToLong(b -> ((Number) b.get("units")).longValue() - row.perUserLimit()).sum();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("limit", row.perUserLimit());
        facts.put("buyers", above.size());
        facts.put("unitsAboveLimit", excess);
        facts.put("examples", above.stream().limit(5).map(b -> b.get("userId") + ":" + b.get("units")).toList());
        return Optional.of(new Finding(Finding.Kind.LIMIT_EXCESS, sku, facts));
    }

    /** The findings for one SKU, the MySQL store's included. */
    public List<Finding> check(String sku) {
        return check(sku, true);
    }

    /** @param withMysqlStore false in a run over every SKU, which checks every MySQL store at once afterwards */
    private List<Finding> check(String sku, boolean withMysqlStore) {
        List<Finding> findings = new ArrayList<>();
        SkuStockRow row = skus.find(sku);
        if (row == null) {
            return findings;
        }
        Optional<Map<String, Object>> drift = drift(sku);
        if (drift.isPresent()) {
            pause(settings.driftRecheck());
            Optional<Map<String, Object>> again = drift(sku);
            if (again.isPresent() && again.equals(drift)) {
                boolean missing = Boolean.TRUE.equals(again.get().get("redisMissing"));
                findings.add(new Finding(missing ? Finding.Kind.REDIS_MISSING : Finding.Kind.REDIS_MYSQL_DRIFT, sku,
                        again.get()));
            }
        }
        long confirmed = ledger.confirmedUnits(sku);
        SkuStockRow now = skus.find(sku);
        if (confirmed != now.sold()) {
            findings.add(new Finding(Finding.Kind.LEDGER_CONTRADICTS, sku,
                    Map.of("ledgerConfirmed", confirmed, "mysqlSold", now.sold())));
        }
        if (withMysqlStore) {
            findings.addAll(mysqlStore(sku, now));
        }
        limitExcess(sku, now).ifPresent(findings::add);
        for (RedisStockReader.OversoldConfirm o : redis.oversoldConfirms(sku)) {
            findings.add(new Finding(Finding.Kind.OVERSOLD_CONFIRM, sku,
                    Map.of("xid", o.xid(), "reservationId", o.reservationId(), "units", o.units())));
        }
        for (Map<String, Object> r : ledger.refusedConfirms(sku)) {
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("xid", r.get("xid"));
            facts.put("reservationId", r.get("reservationId"));
            facts.put("units", r.get("quantity"));
            facts.put("refusal", String.valueOf(r.get("refusal")));
            facts.put("confirmedAt", String.valueOf(r.get("confirmedAt")));
            findings.add(new Finding(Finding.Kind.CONFIRM_OF_REFUSED_TRY, sku, facts));
        }
        long nowMillis = clock.millis();
        for (RedisStockReader.OpenReservation open : redis.openReservations(sku)) {
            long age = nowMillis - open.triedAtMillis();
            if (age >= settings.overdueAfter().toMillis()) {
                Map<String, Object> facts = new LinkedHashMap<>();
                facts.put("xid", open.xid());
                facts.put("reservationId", open.reservationId());
                facts.put("quantity", open.quantity());
                facts.put("ageSeconds", age / 1000);
                facts.put("transactionStatus", transactions.status(open.xid()));
                findings.add(new Finding(Finding.Kind.OVERDUE_RESERVATION, sku, facts));
            }
            String state = ledger.state(open.xid(), open.reservationId(), sku);
            if (state == null && age >= settings.ledgerGrace().toMillis()) {
                findings.add(new Finding(Finding.Kind.LEDGER_MISSING, sku,
                        Map.of("xid", open.xid(), "reservationId", open.reservationId(), "quantity", open.quantity())));
            } else if (state != null && !state.equals("TRIED")) {
                // Redis still holds the units of a reservation the ledger says has ended
                findings.add(new Finding(Finding.Kind.LEDGER_CONTRADICTS, sku, Map.of("xid", open.xid(),
                        "reservationId", open.reservationId(), "ledgerState", state, "redisState", "TRIED")));
            }
        }
        return findings;
    }

    /**
     * The MySQL store of one SKU: its counts against its ledger rows, its reservations TRIED for too long, and
     * handovers still pending after that long.
     */
    private List<Finding> mysqlStore(String sku, SkuStockRow row) {
        List<Finding> findings = new ArrayList<>();
        reserveDrift(sku, row.reserved(), ledger.reserveUnits(sku, "TRIED"), row.allotmentSold(),
                ledger.reserveUnits(sku, "CONFIRMED")).ifPresent(findings::add);
        ledger.heldSince(sku, settings.overdueAfter().toSeconds()).forEach(h -> findings.add(heldTooLong(h)));
        handovers.pendingOf(sku).stream().filter(this::pendingTooLong).forEach(h -> findings.add(pending(h)));
        return findings;
    }

    /**
     * The same for every SKU at once, in a few queries whatever the number of SKUs: the MySQL store's rows are
     * rare (they exist only for what it sold while Redis could not), and the SKUs with MySQL-store sales are few.
     */
    private List<Finding> mysqlStore() {
        List<Finding> findings = new ArrayList<>();
        Map<String, long[]> ledgerUnits = new LinkedHashMap<>();
        for (Map<String, Object> r : ledger.reserveUnitsBySku()) {
            ledgerUnits.put((String) r.get("sku_id"), new long[] {((Number) r.get("tried")).longValue(),
                    ((Number) r.get("confirmed")).longValue()});
        }
        Map<String, SkuStockRow> rows = new LinkedHashMap<>();
        skus.withReserveSales().forEach(r -> rows.put(r.skuId(), r));
        java.util.Set<String> concerned = new java.util.TreeSet<>(ledgerUnits.keySet());
        concerned.addAll(rows.keySet());
        for (String sku : concerned) {
            SkuStockRow row = rows.containsKey(sku) ? rows.get(sku) : skus.find(sku);
            long[] units = ledgerUnits.getOrDefault(sku, new long[2]);
            if (row != null) {
                reserveDrift(sku, row.reserved(), units[0], row.allotmentSold(), units[1]).ifPresent(findings::add);
            }
        }
        ledger.heldSince(null, settings.overdueAfter().toSeconds()).forEach(h -> findings.add(heldTooLong(h)));
        handovers.pendingSince(settings.overdueAfter().toSeconds())
                .forEach(h -> findings.add(pending(h)));
        return findings;
    }

    private static Optional<Finding> reserveDrift(String sku, long reserved, long tried, long allotmentSold,
                                                  long confirmed) {
        if (tried == reserved && confirmed == allotmentSold) {
            return Optional.empty();
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("mysqlReserved", reserved);
        facts.put("ledgerTried", tried);
        facts.put("allotmentSold", allotmentSold);
        facts.put("ledgerConfirmed", confirmed);
        return Optional.of(new Finding(Finding.Kind.ALLOTMENT_DRIFT, sku, facts));
    }

    private Finding heldTooLong(Map<String, Object> held) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("store", "MYSQL");
        facts.put("xid", held.get("xid"));
        facts.put("reservationId", held.get("reservation_key"));
        facts.put("quantity", held.get("quantity"));
        facts.put("ageSeconds", held.get("age"));
        facts.put("transactionStatus", transactions.status(String.valueOf(held.get("xid"))));
        return new Finding(Finding.Kind.OVERDUE_RESERVATION, String.valueOf(held.get("sku_id")), facts);
    }

    private boolean pendingTooLong(HandoverRow h) {
        return Duration.between(h.createdAt(), clock.instant()).toSeconds() >= settings.overdueAfter().toSeconds();
    }

    private Finding pending(HandoverRow h) {
        return new Finding(Finding.Kind.HANDOVER_PENDING, h.skuId(), Map.of("operationId", h.operationId(),
                "direction", h.direction(), "units", h.units(), "ageSeconds",
                Duration.between(h.createdAt(), clock.instant()).toSeconds()));
    }

    /**
     * Global sessions the TC has held for longer than {@code session-overdue-after}: the coordinator has not finished
     * them (after a TC restart, sessions caught between a branch's phase two and its report can wait there), so the
     * operator sees each with what our ledger says its reservations became. Reported, never changed here.
     */
    List<Finding> overdueSessions() {
        if (settings.sessionOverdueAfter() == null) {
            return List.of();
        }
        long now = clock.millis();
        List<Finding> findings = new ArrayList<>();
        for (SeataTransactions.GlobalSessionView session : transactions.sessions()) {
            long age = now - session.beginTimeMillis();
            if (age < settings.sessionOverdueAfter().toMillis()) {
                continue;
            }
            List<Map<String, Object>> rows = ledger.rowsOf(session.xid());
            List<String> reservations = rows.stream()
                    .map(r -> r.get("sku_id") + " x" + r.get("quantity") + " " + r.get("state")).toList();
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("xid", session.xid());
            facts.put("status", session.status());
            facts.put("ageSeconds", age / 1000);
            facts.put("applicationId", session.applicationId());
            facts.put("branches", session.branches());
            facts.put("ledger", reservations);
            String sku = rows.isEmpty() ? "" : String.valueOf(rows.get(0).get("sku_id"));
            findings.add(new Finding(Finding.Kind.OVERDUE_GLOBAL_SESSION, sku, facts));
        }
        return findings;
    }

    /**
     * Redis against MySQL: the units Redis has not sold ({@code available + reserved}) must be what MySQL has
     * available to it ({@code stocked - sold - reserved - allotment_available - allotment_incoming}: MySQL's
     * reserved being the MySQL store's, and the allotment being the MySQL store's to sell), and Redis must have sold what MySQL records as sold
     * from Redis ({@code sold - allotment_sold}).
     */
    private Optional<Map<String, Object>> drift(String sku) {
        return drift(redis.read(sku), skus.find(sku));
    }

    /** The arithmetic of {@link #drift(String)}: the facts of a disagreement, empty when the stores agree. */
    static Optional<Map<String, Object>> drift(Optional<RedisStock> redis, SkuStockRow mysql) {
        if (redis.isEmpty()) {
            return Optional.of(Map.of("redisMissing", true, "mysqlAvailable", mysql.redisAvailable()));
        }
        RedisStock r = redis.get();
        if (r.unsold() == mysql.redisAvailable() && r.sold() == mysql.redisSold()) {
            return Optional.empty();
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("redisUnsold", r.unsold());
        facts.put("mysqlAvailable", mysql.redisAvailable());
        facts.put("unsoldDifference", r.unsold() - mysql.redisAvailable());
        facts.put("redisSold", r.sold());
        facts.put("mysqlSold", mysql.redisSold());
        facts.put("soldDifference", r.sold() - mysql.redisSold());
        if (mysql.allotmentAvailable() != 0 || mysql.allotmentIncoming() != 0 || mysql.allotmentSold() != 0) {
            facts.put("allotmentAvailable", mysql.allotmentAvailable());
            facts.put("allotmentIncoming", mysql.allotmentIncoming());
            facts.put("allotmentSold", mysql.allotmentSold());
        }
        return Optional.of(facts);
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
