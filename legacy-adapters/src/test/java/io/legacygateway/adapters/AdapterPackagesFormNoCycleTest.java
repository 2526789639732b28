package io.legacygateway.adapters;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.legacygateway.adapters.outbox.OutboxSource;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The adapters' packages import each other one way: no package of them reaches itself again through others. Within
 * the outbox the floors are, from the bottom: the SQL kit ({@code outbox.sql}), the mapping of a table
 * ({@code outbox.mapping}), the relay's contract ({@code outbox}), then the store, the attempt log and the zero-write
 * reader. Read from the compiled main classes.
 */
class AdapterPackagesFormNoCycleTest {

    private static final String OUTBOX = "io.legacygateway.adapters.outbox";
    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() throws URISyntaxException {
        main = new ClassFileImporter().importPath(
                Path.of(OutboxSource.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    }

    @Test
    void packagesFormNoCycle() {
        slices().matching("io.legacygateway.adapters.(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void theSqlKitImportsNothingOfTheOutbox() {
        noClasses().that().resideInAPackage(OUTBOX + ".sql")
                .should().dependOnClassesThat().resideInAnyPackage(OUTBOX, OUTBOX + ".mapping", OUTBOX + ".store",
                        OUTBOX + ".attempts", OUTBOX + ".zerowrite")
                .check(main);
    }

    @Test
    void theMappingImportsOnlyTheSqlKit() {
        noClasses().that().resideInAPackage(OUTBOX + ".mapping")
                .should().dependOnClassesThat().resideInAnyPackage(OUTBOX, OUTBOX + ".store", OUTBOX + ".attempts",
                        OUTBOX + ".zerowrite")
                .check(main);
    }

    @Test
    void theStoreAndTheAttemptLogDoNotKnowEachOtherNorTheZeroWriteReader() {
        noClasses().that().resideInAPackage(OUTBOX + ".store")
                .should().dependOnClassesThat().resideInAnyPackage(OUTBOX + ".attempts", OUTBOX + ".zerowrite")
                .check(main);
        noClasses().that().resideInAPackage(OUTBOX + ".attempts")
                .should().dependOnClassesThat().resideInAnyPackage(OUTBOX + ".store", OUTBOX + ".zerowrite")
                .check(main);
    }
}
