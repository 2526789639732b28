package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.OnPostgres;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.component.timer.TimerEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The duration check of issue 9 for the {@code outbox-relay} template: every duration parameter, instantiated through
 * the template as YAML would with each documented form, must be the same number of milliseconds where it is used:
 * {@code pollInterval} in Camel's timer (period and first delay), the others in the relay's settings, which the relay
 * reads as {@link Duration}s ({@code maxBackoff}, {@code settleTime}, {@code retryBackoff}, {@code maxRetryBackoff},
 * {@code retention}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres
class RelayTemplateDurationsTest extends RelayTestSupport {

    @Autowired
    CamelContext camel;

    private final List<String> routes = new ArrayList<>();

    @AfterEach
    void removeRoutes() throws Exception {
        for (String id : routes) {
            camel.getRouteController().stopRoute(id);
            camel.removeRoute(id);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"500ms, 500", "30s, 30000", "5m, 300000", "1h30m, 5400000", "7d, 604800000", "PT30S, 30000",
            "PT1M30S, 90000", "30000, 30000"})
    void everyDurationParameterIsTheSameNumberOfMillisecondsWhereItIsUsed(String given, long millis) {
        String name = unique("durations");
        String routeId = OutboxRelayTemplate.ROUTE_PREFIX + name;
        String settle = millis < 200 ? "200ms" : given;
        TemplatedRouteBuilder.builder(camel, OutboxRelayTemplate.TEMPLATE).routeId(routeId)
                .parameter("relay", name).parameter("dataSource", "legacy").parameter("destination", "queue:" + name)
                .parameter("pollInterval", given).parameter("maxBackoff", given).parameter("settleTime", settle)
                .parameter("retryBackoff", given).parameter("maxRetryBackoff", given)
                .parameter("retention", given)
                .add();
        routes.add(routeId);

        TimerEndpoint timer = (TimerEndpoint) camel.getRoute(routeId).getEndpoint();
        assertThat(timer.getPeriod()).as("Camel's timer period").isEqualTo(millis);
        assertThat(timer.getDelay()).as("Camel's timer first delay").isEqualTo(millis);
        RelaySettings s = factory.relays().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow()
                .settings();
        Duration d = Duration.ofMillis(millis);
        assertThat(s.pollInterval()).isEqualTo(d);
        assertThat(s.maxBackoff()).isEqualTo(d);
        assertThat(s.settleTime()).isEqualTo(millis < 200 ? Duration.ofMillis(200) : d);
        assertThat(s.retry().backoff()).isEqualTo(d);
        assertThat(s.retry().maxBackoff()).isEqualTo(d);
        assertThat(s.retention()).isEqualTo(d);
    }
}
