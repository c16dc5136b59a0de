package io.github.flashstock.inventory.reservation;

import static io.github.flashstock.inventory.stock.RedisScripts.RETENTION;
import static io.github.flashstock.inventory.stock.RedisScripts.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.ScriptITSupport;
import io.github.flashstock.inventory.stock.StockLine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Many threads at once against one hot SKU: the scripts never oversell and conserve every unit. */
class TryConcurrencyIT extends ScriptITSupport {

    record Reservation(String xid, String id, List<StockLine> lines) {
    }

    /** How a Try reaches the script: its own call, gathered into shared calls, or gathered with a linger. */
    enum Path {
        ALONE, COALESCED, LINGERING;

        TryOutcome reserve(io.github.flashstock.inventory.stock.RedisScripts scripts, TryRequest request) {
            return switch (this) {
                case ALONE -> scripts.tryScript.run(List.of(request)).get(0);
                case COALESCED -> scripts.coalescer.reserve(request);
                case LINGERING -> scripts.lingering.reserve(request);
            };
        }
    }

    @ParameterizedTest(name = "{0} segment(s), {1}")
    @CsvSource({"1, ALONE", "4, ALONE", "1, COALESCED", "4, COALESCED", "1, LINGERING", "4, LINGERING"})
    void twoThousandConcurrentReservationsNeverOversellTwoHundredUnits(int segments, Path path)
            throws Exception {
        // Given a hot SKU of 200 units and a second SKU of 1,000 that some buyers add to their basket
        String hot = scripts.sku(200, 0, segments);
        String side = scripts.sku(1000, 0, 1);
        ConcurrentLinkedQueue<Reservation> reserved = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<TryOutcome> refused = new ConcurrentLinkedQueue<>();

        // When 2,000 buyers try at once from 64 threads, 1-3 units each, every fifth with two SKUs (each Try its own
        // script call, or gathered into shared calls as the service does, or gathered with a linger)
        ExecutorService pool = Executors.newFixedThreadPool(64);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            int buyer = i;
            done.add(pool.submit(() -> {
                start.await();
                int q = 1 + ThreadLocalRandom.current().nextInt(3);
                List<StockLine> lines = buyer % 5 == 0
                        ? List.of(new StockLine(side, 1), new StockLine(hot, q))
                        : List.of(new StockLine(hot, q));
                Reservation r = new Reservation(xid(), "order-" + buyer, lines);
                TryRequest request = new TryRequest(r.xid(), r.id(), buyer, "user-" + buyer, lines);
                TryOutcome outcome = path.reserve(scripts, request);
                if (outcome instanceof TryOutcome.Reserved) {
                    reserved.add(r);
                } else {
                    refused.add(outcome);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(2, TimeUnit.MINUTES);
        }

        // Then exactly the stock was reserved: never more, and refusals only once too little was left
        long hotReserved = reserved.stream().flatMap(r -> r.lines().stream()).filter(l -> l.skuId().equals(hot))
                .mapToLong(StockLine::quantity).sum();
        assertThat(hotReserved).isLessThanOrEqualTo(200).isGreaterThanOrEqualTo(198);
        assertThat(refused).allSatisfy(o -> assertThat(o).isInstanceOf(TryOutcome.InsufficientStock.class));
        RedisStock afterTry = scripts.stock(hot);
        assertThat(afterTry.reserved()).isEqualTo(hotReserved);
        assertConserved(afterTry);

        // When half of them confirm and the rest cancel, concurrently
        List<Future<?>> ends = new ArrayList<>();
        int n = 0;
        for (Reservation r : reserved) {
            boolean confirm = n++ % 2 == 0;
            ends.add(pool.submit(() -> {
                for (StockLine l : r.lines()) {
                    PhaseOutcome o = confirm ? scripts.confirm.run(l.skuId(), r.xid(), r.id(), RETENTION, l.quantity(), "unused")
                            : scripts.cancel.run(l.skuId(), r.xid(), r.id(), RETENTION);
                    assertThat(o).isEqualTo(new PhaseOutcome.Applied(l.quantity()));
                }
                return null;
            }));
        }
        for (Future<?> f : ends) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();

        // Then nothing is locked, every unit is accounted for, and sold equals what the confirms took
        long confirmedHot = 0;
        n = 0;
        for (Reservation r : reserved) {
            if (n++ % 2 == 0) {
                confirmedHot += r.lines().stream().filter(l -> l.skuId().equals(hot)).mapToLong(StockLine::quantity).sum();
            }
        }
        for (String sku : List.of(hot, side)) {
            RedisStock s = scripts.stock(sku);
            assertConserved(s);
            assertThat(s.reserved()).isZero();
        }
        RedisStock end = scripts.stock(hot);
        assertThat(end.sold()).isEqualTo(confirmedHot);
        assertThat(end.unsold()).isEqualTo(200 - confirmedHot);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Path.class)
    void concurrentReplaysOfOneReservationDeductOnce(Path path) throws Exception {
        String sku = scripts.skuWithAvailable(100);
        String xid = xid();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<TryOutcome>> results = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long branch = i;
            TryRequest replay = new TryRequest(xid, "order-1", branch, "alice", List.of(new StockLine(sku, 2)));
            results.add(pool.submit(() -> path.reserve(scripts, replay)));
        }
        long reservedNow = 0;
        for (Future<TryOutcome> f : results) {
            if (f.get(1, TimeUnit.MINUTES) instanceof TryOutcome.Reserved) {
                reservedNow++;
            }
        }
        pool.shutdown();

        assertThat(reservedNow).isEqualTo(1);
        assertThat(scripts.stock(sku).reserved()).isEqualTo(2);
    }
}
