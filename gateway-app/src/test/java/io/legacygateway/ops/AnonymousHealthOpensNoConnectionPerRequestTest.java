package io.legacygateway.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.testsupport.OnPostgres;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

/**
 * {@code /actuator/health} is open without login. Before, every anonymous request opened a broker connection and took
 * a pool connection of every datasource, and its answer named the failing host, user and driver message to anyone.
 * Now a flood of requests (health, readiness, concurrent) makes no check while the cached result is fresh (the cache
 * time is set far above the flood's length here, so that the count is exact), anonymous callers see the status only,
 * a VIEWER sees the components and their details, and the readiness sample still reads the components.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"gateway.metrics.sample-interval=2h", "gateway.metrics.health-cache=1h"})
@ActiveProfiles("test")
@OnPostgres
class AnonymousHealthOpensNoConnectionPerRequestTest {

    static final int REQUESTS = 200;
    static final String VIEWER = "test-viewer:test-viewer-secret";
    static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    int port;
    @Autowired
    EmbeddedActiveMQ broker;
    @Autowired
    GatewaySampler sampler;
    @Autowired
    MeterRegistry meters;

    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aFloodOfAnonymousRequestsOpensNoBrokerConnectionPerRequest() throws Exception {
        assertThat(get("/actuator/health", null).statusCode()).isEqualTo(200); // the cache is warm from here on
        long connectionsBefore = broker.getActiveMQServer().getTotalConnectionCount();

        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                String path = i % 2 == 0 ? "/actuator/health" : "/actuator/health/readiness";
                answers.add(callers.submit(() -> get(path, null).statusCode()));
            }
            for (Future<Integer> answer : answers) {
                assertThat(answer.get()).isEqualTo(200);
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(broker.getActiveMQServer().getTotalConnectionCount() - connectionsBefore)
                .as("broker connections opened by " + REQUESTS + " anonymous health requests").isZero();

        // the readiness sample reads the same cached components and still finds them UP
        sampler.sampleNow();
        assertThat(meters.get("gateway.ready").gauge().value()).isEqualTo(1.0);
    }

    @Test
    void onlyALoggedInViewerSeesTheComponentsAndTheirDetails() throws Exception {
        for (String path : List.of("/actuator/health", "/actuator/health/readiness", "/actuator/health/liveness")) {
            HttpResponse<String> anonymous = get(path, null);
            assertThat(anonymous.statusCode()).as(path).isEqualTo(200);
            JsonNode status = JSON.readTree(anonymous.body());
            assertThat(status.path("status").asText()).as(path).isEqualTo("UP");
            assertThat(status.has("components")).as(path + " anonymous: " + anonymous.body()).isFalse();
            assertThat(anonymous.body()).as(path).doesNotContain("legacy").doesNotContain("details");
        }
        HttpResponse<String> viewer = get("/actuator/health/readiness", VIEWER);
        assertThat(viewer.statusCode()).isEqualTo(200);
        JsonNode readiness = JSON.readTree(viewer.body());
        assertThat(readiness.at("/components/gatewayDatabases/details/legacy").asText()).isEqualTo("UP");
        assertThat(readiness.at("/components/broker/status").asText()).isEqualTo("UP");
    }

    private HttpResponse<String> get(String path, String credentials) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (credentials != null) {
            b.header("Authorization", "Basic "
                    + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
