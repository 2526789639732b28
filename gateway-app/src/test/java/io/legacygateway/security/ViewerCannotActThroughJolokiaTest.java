package io.legacygateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.testsupport.OperatorHttp;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

/**
 * "Viewers look, operators act", tried through the running Jolokia servlet (its own request parsing) in every form
 * it reads a request from: GET path, GET {@code p} (first one wins in Jolokia), {@code p} next to a path, repeated and
 * percent-encoded {@code p}, POST single and bulk, every request type, directly and through Hawtio's
 * {@code /actuator/hawtio/jolokia}. The target is a probe MBean that counts its invocations and keeps the last value
 * written, so a request that ran is seen whatever Jolokia answered.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability
@ActiveProfiles("test")
class ViewerCannotActThroughJolokiaTest {

    static final String OPERATOR = OperatorSurfacesRequireLoginTest.OPERATOR;
    static final String VIEWER = OperatorSurfacesRequireLoginTest.VIEWER;
    static final String PROBE = "io.legacygateway.test:type=JolokiaProbe";
    static final String EXEC = "/exec/" + PROBE + "/touch";
    static final String READ = "/read/java.lang:type=Memory/HeapMemoryUsage";
    static final String WRITE = "/write/" + PROBE + "/Value/forged";
    static final ObjectMapper JSON = new ObjectMapper();

    /** The MBean a forged request would act on. */
    public interface ProbeMBean {
        String getValue();

        void setValue(String value);

        int getTouched();

        void touch();
    }

    static final class Probe implements ProbeMBean {
        final AtomicInteger touched = new AtomicInteger();
        volatile String value = "original";

        @Override
        public String getValue() {
            return value;
        }

        @Override
        public void setValue(String value) {
            this.value = value;
        }

        @Override
        public int getTouched() {
            return touched.get();
        }

        @Override
        public void touch() {
            touched.incrementAndGet();
        }
    }

    @LocalServerPort
    int port;

    final OperatorHttp http = new OperatorHttp(() -> "http://localhost:" + port, Duration.ofSeconds(30));
    Probe probe;

    @BeforeEach
    void registerProbe() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(PROBE);
        if (server.isRegistered(name)) {
            server.unregisterMBean(name);
        }
        probe = new Probe();
        server.registerMBean(new StandardMBean(probe, ProbeMBean.class), name);
    }

    /** The three requests of the issue, each of which ran an exec as a viewer (HTTP 200). */
    @Test
    void theReportedExploitsAreRefused() throws Exception {
        for (String base : List.of("/actuator/jolokia", "/actuator/hawtio/jolokia")) {
            for (String exploit : List.of(
                    base + EXEC + "?p=" + READ,              // Jolokia takes the path, the old guard the p
                    base + "/?p=" + EXEC + "&p=" + READ,     // Jolokia takes the first p, the old guard the last
                    base + "/?%70=" + EXEC)) {               // the container decodes the name, the old guard did not
                HttpResponse<String> viewer = http.get(exploit, VIEWER);
                assertThat(viewer.statusCode()).as("viewer " + exploit + ": " + viewer.body()).isEqualTo(403);
            }
        }
        assertThat(probe.getTouched()).as("operations run by a viewer").isZero();
    }

    @Test
    void aViewerRunsNothingButReadListSearchVersionInAnyForm() throws Exception {
        List<String> refusedGets = new ArrayList<>();
        for (String base : List.of("/actuator/jolokia", "/actuator/hawtio/jolokia")) {
            for (String action : List.of(EXEC, WRITE, "/notification/register", "/EXEC/" + PROBE + "/touch",
                    "/exec!/x/" + PROBE + "/touch")) {
                refusedGets.add(base + action);                              // path form
                refusedGets.add(base + "/?p=" + action);                     // p form
                refusedGets.add(base + "?p=" + action);                      // p form, no trailing slash
                refusedGets.add(base + READ + "?p=" + action);               // p next to a read path
                refusedGets.add(base + "/?p=" + READ + "&p=" + action);      // a read p first
                refusedGets.add(base + "/?p=" + action + "&p=" + READ);      // a read p last
                refusedGets.add(base + "/?%70=" + action);                   // encoded name
                refusedGets.add(base + "/?%70=" + READ + "&p=" + action);
            }
        }
        for (String url : refusedGets) {
            HttpResponse<String> viewer = http.get(url, VIEWER);
            assertThat(viewer.statusCode()).as("viewer GET " + url + ": " + viewer.body()).isEqualTo(403);
            assertThat(http.get(url, null).statusCode()).as("anonymous GET " + url).isEqualTo(401);
        }
        String exec = "{\"type\":\"exec\",\"mbean\":\"" + PROBE + "\",\"operation\":\"touch\"}";
        String write = "{\"type\":\"write\",\"mbean\":\"" + PROBE + "\",\"attribute\":\"Value\",\"value\":\"forged\"}";
        String notification = "{\"type\":\"notification\",\"command\":\"register\"}";
        String read = "{\"type\":\"read\",\"mbean\":\"java.lang:type=Memory\",\"attribute\":\"HeapMemoryUsage\"}";
        for (String base : List.of("/actuator/jolokia", "/actuator/hawtio/jolokia")) {
            for (String body : List.of(exec, write, notification, exec.replace("\"exec\"", "\"EXEC\""),
                    "[" + read + "," + exec + "]", "[" + read + "," + write + "]", "[" + notification + "]",
                    exec.replace("\"exec\"", "\"\\u0065xec\""))) {
                HttpResponse<String> viewer = http.post(base, body, VIEWER);
                assertThat(viewer.statusCode()).as("viewer POST " + base + " " + body).isEqualTo(403);
                assertThat(http.post(base, body, null).statusCode()).as("anonymous POST " + body).isEqualTo(403);
            }
            // other methods: Jolokia answers none, a viewer is refused before it
            assertThat(http.send(http.request(base + EXEC, VIEWER).PUT(HttpRequest.BodyPublishers.ofString(exec)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(403);
        }
        assertThat(probe.getTouched()).as("operations run by a viewer or anonymous").isZero();
        assertThat(probe.getValue()).as("attribute written by a viewer or anonymous").isEqualTo("original");

        // what a viewer does: read, list, search, version, in each form
        for (String base : List.of("/actuator/jolokia", "/actuator/hawtio/jolokia")) {
            for (String url : List.of(base + READ, base + "/?p=" + READ, base + "?p=" + READ, base + "/?%70=" + READ,
                    base + "/list/java.lang/type=Memory", base + "/search/java.lang:*", base + "/version", base,
                    base + "/read/" + PROBE + "/Value")) {
                HttpResponse<String> viewer = http.get(url, VIEWER);
                assertThat(viewer.statusCode()).as("viewer GET " + url).isEqualTo(200);
                assertThat(JSON.readTree(viewer.body()).path("status").asInt()).as(url + ": " + viewer.body())
                        .isEqualTo(200);
            }
            HttpResponse<String> bulk = http.post(base, "[" + read + ",{\"type\":\"list\",\"path\":\"java.lang\"},"
                    + "{\"type\":\"search\",\"mbean\":\"java.lang:*\"},{\"type\":\"version\"}]", VIEWER);
            assertThat(bulk.statusCode()).isEqualTo(200);
            for (JsonNode r : JSON.readTree(bulk.body())) {
                assertThat(r.path("status").asInt()).as(r.toString()).isEqualTo(200);
            }
        }
    }

    /** The operator keeps what it had: exec and write in the path and p forms and by POST. */
    @Test
    void anOperatorStillActs() throws Exception {
        assertThat(status(http.get("/actuator/jolokia" + EXEC, OPERATOR))).isEqualTo(200);
        assertThat(status(http.get("/actuator/jolokia/?p=" + EXEC, OPERATOR))).isEqualTo(200);
        assertThat(status(http.post("/actuator/hawtio/jolokia",
                "{\"type\":\"exec\",\"mbean\":\"" + PROBE + "\",\"operation\":\"touch()\"}", OPERATOR))).isEqualTo(200);
        assertThat(probe.getTouched()).isEqualTo(3);
        assertThat(status(http.get("/actuator/jolokia" + WRITE, OPERATOR))).isEqualTo(200);
        assertThat(probe.getValue()).isEqualTo("forged");
    }

    private static int status(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body()).path("status").asInt();
    }
}
