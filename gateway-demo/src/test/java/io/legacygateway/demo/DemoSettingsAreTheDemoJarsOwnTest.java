package io.legacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.GatewayApplication;
import io.legacygateway.config.CommandContext;
import io.legacygateway.config.GatewayDataSources;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The demo's settings are the demo jar's own ({@link DemoProperties}, {@code demo.*}; the product has none): the demo
 * jar's default profile turns the demo on, a command of the demo jar reads that profile too and still starts no demo
 * traffic, and a misspelt {@code demo.*} key fails startup naming it. Each context is the demo jar's (its defaults),
 * without web server and on in-memory databases.
 */
class DemoSettingsAreTheDemoJarsOwnTest {

    @Test
    void theDemoJarsDefaultProfileRunsTheDemo() {
        try (ConfigurableApplicationContext context = start()) {
            assertThat(context.getBean(DemoProperties.class).enabled()).isTrue();
            assertThat(context.getBeanNamesForType(DemoLegacyApplication.class)).hasSize(1);
            assertThat(customerTables(context)).as("the demo legacy application created its tables").isOne();
        }
    }

    @Test
    void aCommandOfTheDemoJarStartsNoDemoTraffic() {
        try (ConfigurableApplicationContext context = start(CommandContext.PROPERTY + "=true")) {
            assertThat(context.getBean(DemoProperties.class).enabled()).as("the demo profile is read").isTrue();
            assertThat(context.getBeanNamesForType(DemoLegacyApplication.class)).isEmpty();
            assertThat(context.getBeanNamesForType(DemoPoisonMessages.class)).isEmpty();
            assertThat(customerTables(context)).as("no demo legacy application wrote anything").isZero();
        }
    }

    @Test
    void aMisspeltDemoKeyFailsStartupNamingIt() {
        assertThatThrownBy(() -> start("demo.poison-intervall=1m").close())
                .hasStackTraceContaining("demo.poison-intervall");
    }

    private static int customerTables(ConfigurableApplicationContext context) {
        JdbcTemplate demo = new JdbcTemplate(context.getBean(GatewayDataSources.class).get("demo", "test"));
        return demo.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = 'CUSTOMERS'",
                Integer.class);
    }

    private static ConfigurableApplicationContext start(String... properties) {
        String run = UUID.randomUUID().toString();
        List<String> args = new ArrayList<>(List.of("--spring.main.banner-mode=off",
                "--gateway.datasources.demo.url=jdbc:h2:mem:demo-" + run + ";DB_CLOSE_DELAY=-1",
                "--gateway.datasources.wallet.url=jdbc:h2:mem:wallet-" + run + ";DB_CLOSE_DELAY=-1",
                "--spring.artemis.embedded.persistent=false",
                "--camel.main.routes-include-pattern=classpath:no-routes-in-tests/*.yaml",
                "--logging.level.root=WARN"));
        for (String p : properties) {
            args.add("--" + p);
        }
        return new SpringApplicationBuilder(GatewayApplication.class).properties(DemoApplication.DEMO.defaults())
                .web(WebApplicationType.NONE).run(args.toArray(String[]::new));
    }
}
