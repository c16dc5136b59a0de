package io.github.flashstock.inventory.stock;

import io.github.flashstock.support.Coalescer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Group commit for MySQL's sales record: the MySQL steps of second phases that arrive together (Confirms apart from
 * Cancels) go in one transaction, one statement for the whole group at each step ({@link SalesGroupMapper}), and
 * one commit, so one flush of MariaDB's log, for many reservations. Gathered by a {@link Coalescer}: no timer, at
 * most {@link GroupCommit#inFlight()} transactions under way per phase, at most {@link GroupCommit#maxBatch()}
 * reservations in one.
 *
 * <p>The group takes only the usual case of each reservation: no ledger row yet, or the TRIED row the ledger consumer
 * wrote for Redis (and, for a Confirm, a row already CONFIRMED: a replay, which changes nothing). A reservation
 * whose row is anything else (the MySQL store's, or ended the other way), or that appears twice in the group, is
 * answered {@link Step#ALONE}: its caller takes it through {@link SalesRecord}'s general path by itself, after the
 * group. Lock order is the single path's: the group's ledger rows first, then {@code sku_stock} rows in SKU order,
 * so concurrent groups and single phases cannot wait on each other in a circle.
 *
 * <p>A group whose transaction fails (a deadlock, a row that appeared between the lock and the insert, a SKU that
 * cannot take the sale) is rolled back whole, and each of its reservations goes again alone: the failure lands
 * only on the one that causes it, and the coordinator retries that phase as it retries any.
 */
@Component
class SalesGroups implements DisposableBean {

    /** What the group did for one reservation. */
    enum Step {
        /** Recorded (or found recorded) in the group's committed transaction. */
        RECORDED,
        /** Not taken by the group: the caller records it alone, on the general path. */
        ALONE
    }

    /** The ledger's unique key, (xid, reservation, SKU). */
    private static final Comparator<Sale> KEY_ORDER = Comparator.comparing(Sale::xid)
            .thenComparing(Sale::reservationId).thenComparing(Sale::skuId);

    private final SalesGroupMapper groups;
    private final SkuStockMapper skus;
    private final TransactionTemplate transactions;
    private final Coalescer<Sale, Step> confirms;
    private final Coalescer<Sale, Step> cancels;

    SalesGroups(SalesGroupMapper groups, SkuStockMapper skus, PlatformTransactionManager transactions,
                GroupCommit settings, MeterRegistry meters) {
        this.groups = groups;
        this.skus = skus;
        this.transactions = new TransactionTemplate(transactions);
        Coalescer.Settings gathering = settings.gathering();
        this.confirms = coalescer("confirm", gathering, this::confirmGroup, meters);
        this.cancels = coalescer("cancel", gathering, this::cancelGroup, meters);
    }

    private static Coalescer<Sale, Step> coalescer(String phase, Coalescer.Settings gathering,
                                                   Coalescer.BatchRunner<Sale, Step> runner, MeterRegistry meters) {
        DistributionSummary sizes = DistributionSummary.builder("inventory.group-commit.size")
                .description("reservations whose MySQL step one transaction of the sales record took")
                .tag("phase", phase)
                .register(meters);
        return new Coalescer<>("the " + phase + " group commit", phase + "-group-commit", gathering, runner,
                sale -> phase, e -> e instanceof DataAccessResourceFailureException,
                (sale, maxWait) -> new QueryTimeoutException("the MySQL step of the " + phase + " of reservation "
                        + sale.reservationId() + " waited longer than " + maxWait),
                sizes::record);
    }

    /** A Confirm's MySQL step in the group under way; blocks until that group has committed. */
    Step confirmed(Sale sale) {
        return confirms.submit(sale);
    }

    /** A Cancel's MySQL step in the group under way; blocks until that group has committed. */
    Step cancelled(Sale sale) {
        return cancels.submit(sale);
    }

    private List<Step> confirmGroup(List<Sale> sales) {
        if (sales.size() == 1) {
            return List.of(Step.ALONE); // a group of one: the single path costs fewer round trips
        }
        return transactions.execute(status -> {
            Group group = classify(sales, groups.lock(distinct(sales)), true);
            write(group, "CONFIRMED");
            Map<String, Long> sold = new TreeMap<>(); // SKU order: the lock order of every transaction on sku_stock
            group.moved().forEach(s -> sold.merge(s.skuId(), s.units(), Long::sum));
            sold.forEach((sku, units) -> {
                if (skus.sell(sku, units) != 1) {
                    throw new IllegalStateException("sku_stock of " + sku + " cannot take a sale of " + units);
                }
            });
            return group.steps();
        });
    }

    private List<Step> cancelGroup(List<Sale> sales) {
        if (sales.size() == 1) {
            return List.of(Step.ALONE);
        }
        return transactions.execute(status -> {
            Group group = classify(sales, groups.lock(distinct(sales)), false);
            write(group, "CANCELLED");
            return group.steps();
        });
    }

    /**
     * Inserts the missing rows, in the ledger's key order (the order the ledger consumer writes its rows in), and
     * moves the TRIED ones; every count must be the one expected.
     */
    private void write(Group group, String state) {
        List<Sale> inserts = group.inserts().stream().sorted(KEY_ORDER).toList();
        if (!inserts.isEmpty() && groups.insertEnded(inserts, state) != inserts.size()) {
            throw new IllegalStateException("a ledger row of the group appeared after the group's lock");
        }
        if (!group.advances().isEmpty() && groups.advance(group.advances(), state) != group.advances().size()) {
            throw new IllegalStateException("a TRIED ledger row of the group moved while locked");
        }
    }

    /**
     * @param confirm a Confirm's group: a row CONFIRMED already is a replay the group answers; for a Cancel, a row
     *                ended already (CANCELLED, REFUSED, CONFIRMED) is left as it is, as the general path leaves it
     */
    private static Group classify(List<Sale> sales, List<SalesGroupMapper.GroupRow> rows, boolean confirm) {
        Group group = new Group(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        Map<Sale.Key, SalesGroupMapper.GroupRow> byKey = new HashMap<>();
        rows.forEach(row -> byKey.put(row.key(), row));
        Set<Sale.Key> seen = new HashSet<>();
        for (Sale sale : sales) {
            if (!seen.add(sale.key())) {
                group.steps().add(Step.ALONE); // twice in one group: the second finds what the first did
                continue;
            }
            SalesGroupMapper.GroupRow row = byKey.get(sale.key());
            if (row == null) {
                group.inserts().add(sale);
                group.moved().add(sale);
                group.steps().add(Step.RECORDED);
            } else if (!"REDIS".equals(row.store())) {
                group.steps().add(Step.ALONE); // the MySQL store's row: both stores held it, the general path settles
            } else if ("TRIED".equals(row.state())) {
                group.advances().add(row.id());
                group.moved().add(sale);
                group.steps().add(Step.RECORDED);
            } else if (!confirm || "CONFIRMED".equals(row.state())) {
                group.steps().add(Step.RECORDED); // ended already: nothing to do
            } else {
                group.steps().add(Step.ALONE); // a Confirm meeting a row ended otherwise: the general path says so
            }
        }
        return group;
    }

    /** One sale per ledger row: the rows to lock. */
    private static List<Sale> distinct(List<Sale> sales) {
        Set<Sale.Key> keys = new HashSet<>();
        return sales.stream().filter(s -> keys.add(s.key())).toList();
    }

    /** What one group writes: rows to insert, TRIED rows to move, the sales that move units, one step per sale. */
    private record Group(List<Sale> inserts, List<Long> advances, List<Sale> moved, List<Step> steps) {
    }

    @Override
    public void destroy() {
        confirms.close();
        cancels.close();
    }
}
