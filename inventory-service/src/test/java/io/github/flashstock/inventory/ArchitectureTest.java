package io.github.flashstock.inventory;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Dependencies point one way: reservation -> stock <- segments; the stock model and the TCC path know nothing of
 * messaging or of live configuration.
 */
@AnalyzeClasses(packages = "io.github.flashstock.inventory", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule stockDoesNotDependOnReservations = noClasses()
            .that().resideInAPackage("..inventory.stock..")
            .should().dependOnClassesThat().resideInAPackage("..inventory.reservation..");

    @ArchTest
    static final ArchRule stockAndReservationsDoNotDependOnSegments = noClasses()
            .that().resideInAnyPackage("..inventory.stock..", "..inventory.reservation..")
            .should().dependOnClassesThat().resideInAPackage("..inventory.segments..");

    @ArchTest
    static final ArchRule segmentsUseTheStockModelOnly = noClasses()
            .that().resideInAPackage("..inventory.segments..")
            .should().dependOnClassesThat().resideInAnyPackage("..inventory.reservation..",
                    "..inventory.reconciliation..", "org.springframework.data.redis.core..");

    @ArchTest
    static final ArchRule theTccPathNeverImportsMessaging = noClasses()
            .that().resideInAnyPackage("..inventory.stock..", "..inventory.reservation..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.rocketmq..");

    @ArchTest
    static final ArchRule onlyTheWebAdaptersUseTheWebLayer = noClasses()
            .that().resideInAnyPackage("..inventory.stock", "..inventory.stock.redis..", "..inventory.stock.jdbc..",
                    "..inventory.reservation")
            .should().dependOnClassesThat().resideInAPackage("org.springframework.web..");

    @ArchTest
    static final ArchRule onlyScriptWrappersTalkToRedis = noClasses()
            .that().resideInAnyPackage("..inventory.reservation..", "..inventory.stock.jdbc..", "..inventory.stock.web..")
            .should().dependOnClassesThat().resideInAPackage("org.springframework.data.redis.core..");
}
