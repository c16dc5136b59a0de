package io.github.flashstock.inventory;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The service's rooms are features, and their dependencies point one way:
 * <pre>
 *   reconciliation -> reservation, events, stock
 *   reservation    -> events, stock
 *   segments       -> stock
 *   events         -> stock
 * </pre>
 * {@code stock} (the model, its keys, the catalog and both stores) knows no feature; {@code events} (phase events,
 * forwarding, the ledger) knows no feature but the stock it records; {@code reservation} (the TCC branch) and
 * {@code segments} (live segment counts) know nothing of each other, of reconciliation or of messaging.
 */
@AnalyzeClasses(packages = "io.github.flashstock.inventory", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String STOCK = "..inventory.stock..";
    private static final String EVENTS = "..inventory.events..";
    private static final String RESERVATION = "..inventory.reservation..";
    private static final String SEGMENTS = "..inventory.segments..";
    private static final String RECONCILIATION = "..inventory.reconciliation..";

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("io.github.flashstock.inventory.(**)")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule noFeatureCycles = slices().matching("io.github.flashstock.inventory.(*)..")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule stockKnowsNoFeature = noClasses().that().resideInAPackage(STOCK)
            .should().dependOnClassesThat().resideInAnyPackage(EVENTS, RESERVATION, SEGMENTS, RECONCILIATION);

    @ArchTest
    static final ArchRule eventsRecordStockOnly = noClasses().that().resideInAPackage(EVENTS)
            .should().dependOnClassesThat().resideInAnyPackage(RESERVATION, SEGMENTS, RECONCILIATION);

    @ArchTest
    static final ArchRule reservationsKnowNeitherSegmentsNorReconciliation = noClasses()
            .that().resideInAPackage(RESERVATION)
            .should().dependOnClassesThat().resideInAnyPackage(SEGMENTS, RECONCILIATION);

    @ArchTest
    static final ArchRule segmentsUseTheStockModelOnly = noClasses().that().resideInAPackage(SEGMENTS)
            .should().dependOnClassesThat().resideInAnyPackage(RESERVATION, EVENTS, RECONCILIATION);

    @ArchTest
    static final ArchRule theTccPathNeverImportsMessaging = noClasses()
            .that().resideInAnyPackage(STOCK, RESERVATION, SEGMENTS)
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
            // the per-SKU lock the rebuild scripts hold: SET NX plus release.lua
            .and().doNotHaveSimpleName("RebuildLock")
            // the SKUs' event streams the forwarder reads, acknowledges and trims (the scripts write them)
            .and().doNotHaveSimpleName("StockEventStream")
            // runs TryScript's script and the WAIT behind it under inventory.durability: replica
            .and().doNotHaveSimpleName("ReplicaWait")
            .should().dependOnClassesThat().resideInAPackage("org.springframework.data.redis.core..");
}
