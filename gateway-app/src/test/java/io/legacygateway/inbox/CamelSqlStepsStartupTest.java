package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.legacygateway.GatewayApplication;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.testsupport.RepositoryDocs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.component.sql.SqlEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * YAML route files with camel-sql steps, loaded at startup as {@code camel.main.routes-include-pattern} loads them
 * (the examples of docs/inbox.md and routes/inbox/): {@code dataSource=#<name>} is the pool of
 * {@code gateway.datasources.<name>}, bound before the routes start; a name that is not configured stops the gateway,
 * naming the route and the name; a step of an effect route on another datasource than its consumer's is reported.
 */
@ExtendWith(OutputCaptureExtension.class)
class CamelSqlStepsStartupTest {

    @Test
    void theDocumentedExampleStartsWithItsSqlStepsOnTheConsumersDatasource(@TempDir Path routes) throws IOException {
        Path file = routes.resolve("payments.yaml");
        Files.write(file, RepositoryDocs.marked("docs/inbox.md", "example:camel-sql").stream()
                .filter(line -> !line.startsWith("```")).toList());
        try (ConfigurableApplicationContext context = start("billing", "file:" + file)) {
            CamelContext camel = context.getBean(CamelContext.class);
            List<SqlEndpoint> steps = camel.getEndpoints().stream().filter(SqlEndpoint.class::isInstance)
                    .map(SqlEndpoint.class::cast).toList();
            assertThat(steps).hasSize(2);
            DataSource billing = context.getBean(GatewayDataSources.class).get("billing", "test");
            assertThat(steps).allSatisfy(step -> assertThat(step.getJdbcTemplate().getDataSource()).isSameAs(billing));
            assertThat(camel.getRouteController().getRouteStatus("apply-payment").isStarted()).isTrue();
            assertThat(camel.getRouteController().getRouteStatus("inbox-consumer-payments").isStarted()).isTrue();
        }
    }

    @Test
    void theAnnotatedExampleOfRoutesInboxStartsOnceCopied(@TempDir Path routes) throws IOException {
        Path file = Files.copy(RepositoryDocs.path("routes/inbox/example-payments.yaml.example"),
                routes.resolve("payments.yaml"));
        try (ConfigurableApplicationContext context = start("billing", "file:" + file)) {
            CamelContext camel = context.getBean(CamelContext.class);
            assertThat(camel.getRouteController().getRouteStatus("cancel-receivable").isStarted()).isTrue();
            assertThat(camel.getRouteController().getRouteStatus("inbox-consumer-billing-orders").isStarted()).isTrue();
        }
    }

    @Test
    void aSqlStepOfAnEffectRouteOnAnotherDatasourceIsReportedAtStartup(CapturedOutput output) {
        try (ConfigurableApplicationContext context = start("billing",
                "classpath:startup-test/inbox-sql-step-elsewhere.yaml", "--gateway.datasources.ledger.url=jdbc:h2:mem:"
                        + unique() + ";DB_CLOSE_DELAY=-1", "--gateway.datasources.ledger.username=sa")) {
            assertThat(output.getOut()).contains("inbox-consumer 'payments' parameter 'effectEndpoint': route"
                    + " 'book-payment' step 'sql:INSERT INTO booking (account, amount) VALUES (:#account, :#amount)"
                    + "?dataSource=#ledger' runs on datasource 'ledger', not on the consumer's datasource 'billing'")
                    .doesNotContain("route 'apply-payment' step");
        }
    }

    @Test
    void aSqlStepOnADatasourceThatIsNotConfiguredFailsStartupNamingTheRouteAndTheName() {
        Throwable t = catchThrowable(() -> start("billing",
                "classpath:startup-test/sql-step-unknown-datasource.yaml").close());
        assertThat(t).as("startup must fail").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        assertThat(all.toString()).contains("Failed to create route: apply-refund")
                .contains("No bean could be found in the registry for: ledger of type: javax.sql.DataSource");
    }

    /**
     * The gateway with datasource {@code name} (a fresh in-memory H2), the route files of {@code routes} and
     * {@code more} arguments.
     */
    private static ConfigurableApplicationContext start(String name, String routes, String... more) {
        String prefix = "--gateway.datasources." + name + ".";
        List<String> args = new ArrayList<>(List.of(prefix + "url=jdbc:h2:mem:" + unique() + ";DB_CLOSE_DELAY=-1",
                prefix + "username=sa", prefix + "initialize-schema=true",
                "--camel.main.routes-include-pattern=" + routes));
        args.addAll(List.of(more));
        return new SpringApplicationBuilder(GatewayApplication.class).web(WebApplicationType.NONE).profiles("test")
                .run(args.toArray(String[]::new));
    }

    private static String unique() {
        return "camel-sql-steps-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
