package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.broker.BrokerFailovers;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure window: the relay's only broker (a plain URL, no pair, no reconnection) is killed and started again while
 * rows keep coming: the relay's connection is lost and the relay rebuilds it once the broker is back. The gateway sees
 * it as a failover of the relay that could not fail over on its connection and completed on a new one: the lost
 * connection counted in {@code gateway_broker_failovers_total{outcome="failed"}}, one episode
 * {@code completed} with its stall timed once, from the failure detected to the first batch published on the new
 * connection, and {@code failingOver} shown while it lasts and no more after. Every row published, none charged.
 * PostgreSQL, the shared standalone broker.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres
class RelayReconnectsAfterABrokerRestartAsAFailoverTest extends RelayTestSupport {

    @DynamicPropertySource
    static void legacyDatabaseAndStandaloneBroker(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
    }

    @Autowired
    MeterRegistry meters;

    @Autowired
    CamelContext camel;

    @Autowired
    BrokerFailovers failovers;

    @Test
    void aRelayRebuildingItsConnectionAfterABrokerRestartIsOneFailoverTimedOnce() throws Exception {
        String name = unique("restart");
        String routeId = OutboxRelayTemplate.ROUTE_PREFIX + name;
        double completed = failovers("completed");
        double failed = failovers("failed");
        long stalls = meters.timer("gateway.broker.failover.stall", "role", "relay").count();
        TemplatedRouteBuilder.builder(camel, OutboxRelayTemplate.TEMPLATE).routeId(routeId)
                .parameter("relay", name).parameter("dataSource", "legacy")
                .parameter("destination", "queue:" + unique("it.restart")).parameter("pollInterval", "100ms")
                .parameter("maxBackoff", "1s").add();
        StandaloneArtemis artemis = StandaloneArtemis.shared();
        try {
            rows.insertSequence("order-a", 20);
            Awaitility.await("the first rows published").atMost(Duration.ofSeconds(30))
                    .until(() -> rows.count("PUBLISHED") == 20);

            artemis.kill();
            try {
                Awaitility.await("the failover shown").atMost(Duration.ofSeconds(30))
                        .until(() -> failovers.failingOver().containsKey(BrokerFailovers.Role.RELAY));
                rows.insertSequence("order-b", 20); // waiting in the outbox while the broker is away
            } finally {
                artemis.start();
            }
            Awaitility.await("every row published after the restart").atMost(Duration.ofSeconds(60))
                    .until(() -> rows.count("PUBLISHED") == 40);
            Awaitility.await("the failover over").atMost(Duration.ofSeconds(10))
                    .until(() -> failovers.failingOver().isEmpty());
        } finally {
            camel.getRouteController().stopRoute(routeId);
            camel.removeRoute(routeId);
        }

        assertThat(failovers("completed") - completed).as("one failover, completed on a new connection").isEqualTo(1);
        assertThat(failovers("failed") - failed).as("the lost connection, which could not fail over").isEqualTo(1);
        assertThat(meters.timer("gateway.broker.failover.stall", "role", "relay").count() - stalls)
                .as("its stall timed once").isEqualTo(1);
        assertThat(rows.charged()).as("an outage charges no row").isZero();
    }

    private double failovers(String outcome) {
        return meters.counter("gateway.broker.failovers", "role", "relay", "outcome", outcome).count();
    }
}
