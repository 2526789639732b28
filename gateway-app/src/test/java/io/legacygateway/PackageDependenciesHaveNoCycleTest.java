package io.legacygateway;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.legacygateway.cli.GatewayApiClient;
import io.legacygateway.cli.GatewayCommand;
import io.legacygateway.deadletter.MessageCopies;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages of gateway-app's main code import each other in one direction: no two packages import each other,
 * directly or through others, and the settings ({@code config/}) and the envelope ({@code envelope/}), which every
 * feature reads, import no feature. Read from the compiled main classes (the tests are not part of it).
 */
class PackageDependenciesHaveNoCycleTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() throws URISyntaxException {
        main = new ClassFileImporter().importPath(
                Path.of(GatewayApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    }

    /**
     * Each entry is an import that closes a cycle today, with the package that is to remove it; delete the entry when
     * it is gone (the rule then keeps it gone).
     */
    @Test
    void packagesFormNoCycle() {
        slices().matching("io.legacygateway.(*)..").should().beFreeOfCycles()
                // the feature commands implement cli's command contract and use its REST client, while cli's command
                // list names them: until the contract sits below the features (cli/), or the list above them
                .ignoreDependency(resideInAnyPackage("io.legacygateway.relay..", "io.legacygateway.deadletter..",
                        "io.legacygateway.reconciliation..", "io.legacygateway.capture.."),
                        belongToAnyOf(GatewayCommand.class, GatewayApiClient.class))
                // the inbox's dead-lettering copies messages with the redelivery's helper, while the redelivery
                // looks messages up in the inbox: until the helper sits below both
                .ignoreDependency(resideInAPackage("io.legacygateway.inbox.."), belongToAnyOf(MessageCopies.class))
                .check(main);
    }

    @Test
    void settingsAndEnvelopeImportNoFeature() {
        for (String lower : new String[] {"config", "envelope"}) {
            noClasses().that().resideInAPackage("io.legacygateway." + lower + "..")
                    .should().dependOnClassesThat(resideInAPackage("io.legacygateway..")
                            .and(not(resideInAnyPackage("io.legacygateway." + lower + "..",
                                    "io.legacygateway.adapters.."))))
                    .because(lower + "/ is read by every feature, so a feature it imports would close a cycle")
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
