package io.legacygateway;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages of gateway-app's main code import each other in one direction: no two packages import each other,
 * directly or through others, and the settings ({@code config/}), the envelope ({@code envelope/}) and the command
 * contracts ({@code command/}), which the features build on, import no feature. Read from the compiled main classes
 * (the tests are not part of it).
 */
class PackageDependenciesHaveNoCycleTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() throws URISyntaxException {
        main = new ClassFileImporter().importPath(
                Path.of(GatewayApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    }

    @Test
    void packagesFormNoCycle() {
        slices().matching("io.legacygateway.(*)..").should().beFreeOfCycles().check(main);
    }

    @Test
    void settingsEnvelopeAndCommandContractsImportNoFeature() {
        for (String lower : new String[] {"config", "envelope", "command"}) {
            noClasses().that().resideInAPackage("io.legacygateway." + lower + "..")
                    .should().dependOnClassesThat(resideInAPackage("io.legacygateway..")
                            .and(not(resideInAnyPackage("io.legacygateway." + lower + "..",
                                    "io.legacygateway.adapters.."))))
                    .because(lower + "/ is what the features build on, so a feature it imports would close a cycle")
                    .check(main);
        }
    }

    /** The application class is the composition root: what it wires never refers back to it. */
    @Test
    void nothingImportsTheApplication() {
        noClasses().that().resideOutsideOfPackage("io.legacygateway")
                .should().dependOnClassesThat().belongToAnyOf(GatewayApplication.class)
                .check(main);
    }
}
