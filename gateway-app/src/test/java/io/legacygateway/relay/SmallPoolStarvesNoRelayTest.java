package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A relay on a datasource with {@code maximum-pool-size: 1} (the docs encourage small pools on legacy databases)
 * publishes: what it holds besides its cycle's connection (the attempt log's write, made while the cycle's transaction
 * is open, and with {@code wakeUp: NOTIFY} the listening connection) is not taken from that pool. Before, the cycle
 * waited for a connection the relay itself held, failed after {@code connect-timeout}, and did so every cycle: nothing
 * was ever published.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class SmallPoolStarvesNoRelayTest extends RelayTestSupport {

    @Autowired
    CamelContext camel;

    private String routeId;

    @DynamicPropertySource
    static void onePooledConnection(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.legacy.maximum-pool-size", () -> "1");
        registry.add("gateway.datasources.legacy.connect-timeout", () -> "3s");
    }

    /** {@code NOTIFY} where the database has it, else {@code NONE}. */
    abstract String wakeUp();

    /** The database this class runs against: its {@code @OnPostgres}, {@code @OnMariaDb} or {@code @OnH2}. */
    TestDatabase database() {
        return TestDatabase.of(getClass());
    }

    @BeforeEach
    void rowsOutsideThePool() {
        // the test's own writes and reads must not take the pool's one connection
        rows = new OutboxRows(new DriverManagerDataSource(
                LegacyDatabases.directUrl("legacy", database(), getClass()), database().username(), ""));
    }

    @AfterEach
    void removeRoute() throws Exception {
        if (routeId != null) {
            camel.getRouteController().stopRoute(routeId);
            camel.removeRoute(routeId);
        }
    }

    @Test
    void aRelayWithItsAttemptLogPublishesThroughAPoolOfOneConnection() throws Exception {
        String name = unique("small-pool");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(rows.insert("order-" + (i % 2), "OrderChanged", "{\"n\":" + i + "}"));
        }
        routeId = OutboxRelayTemplate.ROUTE_PREFIX + name;
        TemplatedRouteBuilder.builder(camel, OutboxRelayTemplate.TEMPLATE).routeId(routeId)
                .parameter("relay", name).parameter("dataSource", "legacy")
                .parameter("destination", "queue:" + name).parameter("pollInterval", "200ms")
                .parameter("batchSize", "4").parameter("wakeUp", wakeUp()).add();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(rows.count("PUBLISHED"))
                .as("rows published by a relay on a pool of one connection").isEqualTo(10));
        assertThat(broker.count(name)).isEqualTo(10);
        assertThat(rows.attemptsOfRelay(name)).as("attempts in the relay's log").isEqualTo(10);
        String later = rows.insert("order-0", "OrderChanged", "{\"n\":10}");
        await().atMost(Duration.ofSeconds(20)).until(() -> "PUBLISHED".equals(rows.status(later)));
        assertThat(broker.count(name)).isEqualTo(11);
    }
}
