package io.legacygateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.WebApplicationType;

/**
 * Bad configuration stops the gateway at startup with a message that names the key: a relay route in YAML with a
 * mapping that does not fit the table, a misspelt gateway key, a datasource without URL.
 */
class StartupFailsNamingTheKeyTest {

    private static final String H2 = "jdbc:h2:mem:startup-test;DB_CLOSE_DELAY=-1";

    @Test
    void aYamlRelayRouteNamingAMissingColumnFailsStartup() {
        String failure = startupFailure(
                "gateway.datasources.legacy.url=" + H2,
                "gateway.datasources.legacy.username=sa",
                "gateway.datasources.legacy.initialize-schema=true",
                "camel.main.routes-include-pattern=classpath:startup-test/relay-missing-column.yaml");
        assertThat(failure).contains("outbox-relay 'bad-mapping' parameter 'payloadColumn': column 'body' does not"
                + " exist in table 'OUTBOX'");
    }

    @Test
    void aYamlRelayRouteMappingAColumnOfATypeTheGatewayCannotConvertFailsStartup() {
        String failure = startupFailure(
                "gateway.datasources.legacy.url=" + H2.replace("startup-test", "startup-type-test"),
                "gateway.datasources.legacy.username=sa",
                "gateway.datasources.legacy.initialize-schema=true",
                "camel.main.routes-include-pattern=classpath:startup-test/relay-unconvertible-type.yaml");
        assertThat(failure).contains("outbox-relay 'bad-type' parameter 'payloadColumn': column 'RETRY_COUNT' has type"
                + " INTEGER, which the gateway cannot convert to the event payload");
    }

    @Test
    void anInboxRetentionShorterThanRedeliveryAndReplayFailsStartupNamingTheKeys() {
        String failure = startupFailure(
                "gateway.datasources.legacy.url=" + H2.replace("startup-test", "startup-lint-test"),
                "gateway.datasources.legacy.username=sa",
                "gateway.datasources.legacy.initialize-schema=true",
                "gateway.retention.inbox=7d",
                "camel.main.routes-include-pattern=classpath:startup-test/inbox-valid.yaml");
        // broker.xml: 6 deliveries, 1 s doubling up to 60 s: 31 s of redeliveries, plus the default 7d replay horizon
        assertThat(failure).contains("gateway.retention.inbox (7d) is shorter than what inbox consumer 'lint' must"
                + " remember: the broker's redelivery span for 'startup.lint' (31s: 6 deliveries")
                .contains("plus gateway.dead-letters.replay-horizon (7d) = 7d31s");
    }

    @Test
    void aNegativeHealthCacheFailsStartupNamingTheKey() {
        assertThat(startupFailure("gateway.metrics.health-cache=-1s"))
                .contains("gateway.metrics.health-cache must be 0 or positive");
    }

    @Test
    void aMisspeltGatewayKeyFailsStartupNamingIt() {
        assertThat(startupFailure("gateway.sourse=urn:typo")).contains("gateway.sourse");
    }

    @Test
    void aDatasourceWithoutUrlFailsStartupNamingTheKey() {
        assertThat(startupFailure("gateway.datasources.legacy.username=sa"))
                .contains("datasources[legacy].url").contains("must not be blank");
    }

    @Test
    void aRouteReloadThatWouldRemoveEveryRouteFailsStartupNamingTheKey() {
        assertThat(startupFailure("camel.main.routes-reload-enabled=true"))
                .contains("camel.main.routes-reload-remove-all-routes must be false with"
                        + " camel.main.routes-reload-enabled=true");
    }

    /** Every message of the failure's cause chain, so that the assertion finds the one that names the key. */
    private static String startupFailure(String... properties) {
        List<String> args = new ArrayList<>();
        for (String p : properties) {
            args.add("--" + p);
        }
        Throwable t = catchThrowable(() -> new SpringApplicationBuilder(GatewayApplication.class)
                .web(WebApplicationType.NONE).profiles("test").run(args.toArray(String[]::new)).close());
        assertThat(t).as("startup must fail").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        return all.toString();
    }

}
