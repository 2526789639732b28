package io.legacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.GatewayApplication;
import io.legacygateway.cli.GatewayCommands;
import io.legacygateway.demo.lab.LabCommand;
import org.junit.jupiter.api.Test;

/**
 * What sets the demo jar apart from the product jar: without arguments it runs the demo (default profile {@code demo},
 * for the gateway and for its commands' contexts), and it has every command of the product plus {@code lab}, which the
 * product jar does not have.
 */
class DemoJarRunsTheDemoAndHasTheLabTest {

    @Test
    void theDemoIsTheDefaultProfileOfTheDemoJarOnly() {
        assertThat(DemoApplication.DEMO.defaults()).containsEntry("spring.profiles.default", "demo");
        assertThat(GatewayApplication.PRODUCT.defaults()).doesNotContainKey("spring.profiles.default");
    }

    @Test
    void theDemoJarHasTheProductsCommandsAndTheLab() {
        assertThat(DemoApplication.DEMO.commands()).containsAll(GatewayCommands.all()).contains(LabCommand.class);
        assertThat(GatewayApplication.PRODUCT.commands()).doesNotContain(LabCommand.class);
    }
}
