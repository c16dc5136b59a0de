package io.github.flashstock.inventory;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.List;
import java.util.stream.Stream;

/**
 * The service's rooms are features (docs/glossary.md names what each holds), and their dependencies point one way,
 * down this list; a room may use only the rooms below it:
 * <pre>
 *   console         the sale console: every instance's readings, per-SKU settings published in Nacos
 *   reconciliation  findings and repairs: reads every store, asks the coordinator
 *   segments        live segment counts from Nacos
 *   mysqlstore      the MySQL store (a ReservationStore), its rate limit, the mirror into Redis
 *   reservation     the TCC action, the router, the Redis store, outcomes, coalescing, the sold-out shortcut
 *   events          stock events, their forwarding, the ledger consumer
 *   catalog         creating, restocking and reloading SKUs; the stock and admin HTTP API; the warm-up
 *   rebuild         rebuilding stale SKUs from MySQL after Redis lost writes, epochs, reload, the rebuild lock
 *   allotment       the MySQL store's allotments, handovers and the rebalancer
 *   stock           the model: SKU rows, the ledger, keys, the sales record, the schema migration
 *   redis           the connection: circuit breaker, replica wait, durability check, script loading
 * </pre>
 * {@code callers} (signed service callers) stands apart and uses none of them. The application package (settings,
 * main class) may be used by every room. A room that needs to tell a room above it something publishes an
 * application event ({@code stock.RebuildNeeded}, {@code events.StockEventsWritten}) or owns an interface the room
 * above implements ({@code reservation.ReservationStore}, {@code rebuild.OpenTransactions}).
 */
@AnalyzeClasses(packages = "io.github.flashstock.inventory", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String EVENTS = "..inventory.events..";
    private static final String RESERVATION = "..inventory.reservation..";
    private static final String RECONCILIATION = "..inventory.reconciliation..";

    /** The rooms, lowest first: each may use those before it only. */
    private static final List<String> ROOMS = List.of("redis", "stock", "allotment", "rebuild", "catalog", "events",
            "reservation", "mysqlstore", "segments", "reconciliation", "console");

    @ArchTest
    static final ArchRule roomsUseOnlyTheRoomsBelowThem = rooms();

    private static ArchRule rooms() {
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("application").definedBy("io.github.flashstock.inventory")
                .layer("callers").definedBy("..inventory.callers..");
        for (String room : ROOMS) {
            layers = layers.layer(room).definedBy("..inventory." + room + "..");
        }
        layers = layers.whereLayer("callers").mayNotBeAccessedByAnyLayer();
        for (int i = 0; i < ROOMS.size(); i++) {
            String[] above = ROOMS.subList(i + 1, ROOMS.size()).toArray(String[]::new);
            layers = above.length == 0 ? layers.whereLayer(ROOMS.get(i)).mayNotBeAccessedByAnyLayer()
                    : layers.whereLayer(ROOMS.get(i)).mayOnlyBeAccessedByLayers(above);
        }
        return layers.because("rooms depend downwards only (see the class comment)");
    }

    @ArchTest
    static final ArchRule everyClassIsInARoom = classes().that().resideInAPackage("io.github.flashstock.inventory..")
            .and().resideOutsideOfPackage("io.github.flashstock.inventory")
            .should().resideInAnyPackage(Stream.concat(ROOMS.stream(), Stream.of("callers"))
                    .map(r -> "io.github.flashstock.inventory." + r + "..").toArray(String[]::new));

    /** The TCC action is an adapter: it knows Seata's API and the router, not the stores or what they use. */
    @ArchTest
    static final ArchRule theTccActionIsThin = classes().that().implement(
                    "io.github.flashstock.inventory.reservation.ReservationAction")
            .should().onlyDependOnClassesThat().resideInAnyPackage(RESERVATION, "java..", "org.apache.seata..",
                    "io.micrometer..", "org.slf4j..", "org.springframework.stereotype..")
            .andShould().dependOnClassesThat().haveSimpleName("StoreRouter");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("io.github.flashstock.inventory.(**)")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule onlyEventsUseMessaging = noClasses()
            .that().resideOutsideOfPackage(EVENTS)
            .and().resideOutsideOfPackage(RECONCILIATION) // publishes its report
            .should().dependOnClassesThat().resideInAPackage("org.apache.rocketmq..");

    @ArchTest
    static final ArchRule onlyTheWebAdaptersUseTheWebLayer = noClasses()
            .that().resideOutsideOfPackage("..web..")
            .and().resideOutsideOfPackage(RECONCILIATION) // the TC's console is read over HTTP (SeataTransactions)
            .should().dependOnClassesThat().resideInAPackage("org.springframework.web..");

    @ArchTest
    static final ArchRule onlyScriptWrappersTalkToRedis = noClasses()
            .that().haveSimpleNameNotEndingWith("Script")
            .and().doNotHaveSimpleName("Scripts")
            .and().doNotHaveSimpleName("RedisStockReader")
            // the per-SKU lock the rebuild scripts hold: SET NX plus unlock.lua
            .and().doNotHaveSimpleName("RebuildLock")
            // the SKUs' event streams the forwarder reads, acknowledges and trims (the scripts write them)
            .and().doNotHaveSimpleName("StockEventStream")
            // runs the phases' scripts and the WAIT or WAITAOF behind them (inventory.durability replica,
            // fsync-and-replica), and the start check's probe write
            .and().doNotHaveSimpleName("DurableWait")
            .should().dependOnClassesThat().resideInAPackage("org.springframework.data.redis.core..");
}
