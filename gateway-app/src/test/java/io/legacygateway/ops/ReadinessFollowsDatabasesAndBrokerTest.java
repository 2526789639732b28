package io.legacygateway.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.adapters.testsupport.DatabaseServers;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TcpProxy;
import io.legacygateway.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Readiness ({@code /actuator/health/readiness}) goes DOWN while the broker is down (the standalone broker killed) and
 * while a datasource is unreachable (the gateway reaches PostgreSQL through a TCP proxy the test stops), and UP again
 * afterwards; liveness stays UP throughout. The sampled gauges survive the database outage: the sample fails and is
 * counted, the pending gauge keeps its last value, and {@code gateway_ready} follows readiness on the sampler's own
 * schedule (nobody calls it), within two sample intervals each way. Readiness follows within the health cache time
 * ({@code gateway.metrics.health-cache}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "gateway.metrics.sample-interval=2s")
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ReadinessFollowsDatabasesAndBrokerTest {

    private static final TcpProxy PROXY = new TcpProxy("127.0.0.1", DatabaseServers.postgres().port()).start();
    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void databaseThroughProxyAndStandaloneBroker(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES, ReadinessFollowsDatabasesAndBrokerTest.class,
                url -> url.replace(DatabaseServers.postgres().address(), "127.0.0.1:" + PROXY.port()));
        registry.add("gateway.datasources.legacy.connect-timeout", () -> "1s");
        StandaloneBroker.register(registry);
    }

    @LocalServerPort
    int port;
    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    MeterRegistry meters;

    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void readinessIsDownWhileTheBrokerOrADatasourceIsUnreachableAndLivenessStaysUp() throws Exception {
        OutboxRows rows = new OutboxRows(new DriverManagerDataSource(LegacyDatabases.directUrl("legacy",
                TestDatabase.POSTGRES, ReadinessFollowsDatabasesAndBrokerTest.class), "postgres", ""));
        rows.clear();
        OutboxRelay relay = relays.create(Map.of("relay", "readiness", "dataSource", "legacy",
                "destination", "queue:it.readiness"));
        rows.insertSequence("order-r", 3);
        assertReady(true);
        withinTwoSamples().untilAsserted(() -> assertThat(gauge("gateway.outbox.pending", relay)).isEqualTo(3.0));
        assertThat(meters.get("gateway.ready").gauge().value()).isEqualTo(1.0);

        StandaloneArtemis broker = StandaloneArtemis.shared();
        broker.kill();
        try {
            JsonNode down = awaitReady(false);
            assertThat(down.at("/components/broker/status").asText()).isEqualTo("DOWN");
            assertThat(down.at("/components/gatewayDatabases/status").asText()).isEqualTo("UP");
            assertThat(status("/actuator/health/liveness")).isEqualTo(200);
            withinTwoSamples().untilAsserted(() -> assertThat(meters.get("gateway.ready").gauge().value()).isZero());
        } finally {
            broker.start();
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertReady(true));

        double failedSamples = meters.counter("gateway.outbox.sample.failures", "relay", relay.name()).count();
        PROXY.stop();
        try {
            JsonNode down = awaitReady(false);
            assertThat(down.at("/components/gatewayDatabases/status").asText()).isEqualTo("DOWN");
            assertThat(down.at("/components/gatewayDatabases/details/legacy").asText()).startsWith("DOWN");
            assertThat(status("/actuator/health/liveness")).isEqualTo(200);
            withinTwoSamples().untilAsserted(() -> {
                assertThat(meters.counter("gateway.outbox.sample.failures", "relay", relay.name()).count())
                        .as("the failed samples are counted").isGreaterThan(failedSamples);
                assertThat(meters.get("gateway.ready").gauge().value()).isZero();
            });
            assertThat(gauge("gateway.outbox.pending", relay)).as("the gauge keeps its last value").isEqualTo(3.0);
        } finally {
            PROXY.start();
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertReady(true));
        withinTwoSamples().untilAsserted(() -> assertThat(meters.get("gateway.ready").gauge().value()).isEqualTo(1.0));
    }

    /** Two intervals of the sampler (2 s here), and the time a sample of an unreachable database may take. */
    private static ConditionFactory withinTwoSamples() {
        return Awaitility.await().atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(100));
    }

    private double gauge(String name, OutboxRelay relay) {
        return meters.get(name).tag("relay", relay.name()).gauge().value();
    }

    /** Within the health cache time ({@code gateway.metrics.health-cache}, 2s by default) and a margin. */
    private JsonNode awaitReady(boolean ready) {
        AtomicReference<JsonNode> body = new AtomicReference<>();
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> body.set(assertReady(ready)));
        return body.get();
    }

    /** As a VIEWER: anonymous callers get the status without the components. */
    private JsonNode assertReady(boolean ready) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/actuator/health/readiness")).header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString("test-viewer:test-viewer-secret".getBytes(StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(ready ? 200 : 503);
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.get("status").asText()).isEqualTo(ready ? "UP" : "DOWN");
        return body;
    }

    private int status(String path) throws Exception {
        return get(path).statusCode();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
