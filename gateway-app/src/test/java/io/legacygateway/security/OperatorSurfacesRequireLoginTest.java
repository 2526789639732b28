package io.legacygateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.testsupport.OperatorHttp;
import java.net.CookieManager;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.util.ClassUtils;

/**
 * The operator surfaces over real HTTP: what is open without credentials, what needs a login and which role, and that
 * Jolokia refuses proxy requests. Users come from {@code application-test.yml}: {@code test-operator} (OPERATOR) and
 * {@code test-viewer} (VIEWER).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability
@ActiveProfiles("test")
class OperatorSurfacesRequireLoginTest {

    static final String OPERATOR = "test-operator:test-operator-secret";
    static final String VIEWER = "test-viewer:test-viewer-secret";
    static final String MEMORY_READ =
            "{\"type\":\"read\",\"mbean\":\"java.lang:type=Memory\",\"attribute\":\"HeapMemoryUsage\"}";
    static final String PROXY_REFUSAL = "{\"status\":403,\"error_type\":\"java.lang.SecurityException\","
            + "\"error\":\"java.lang.SecurityException : Jolokia proxy requests (with a \\\"target\\\") are disabled"
            + " in this gateway\"}";
    static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    int port;

    final OperatorHttp http = new OperatorHttp(() -> "http://localhost:" + port, Duration.ofSeconds(30));

    @Test
    void probesInfoAndPrometheusAnswerWithoutCredentials() throws Exception {
        for (String path : List.of("/actuator/health", "/actuator/health/readiness", "/actuator/health/liveness",
                "/actuator/info", "/actuator/prometheus")) {
            assertThat(http.get(path, null).statusCode()).as(path).isEqualTo(200);
        }
        assertThat(http.get("/actuator/prometheus", null).body()).contains("jvm_memory_used_bytes");
    }

    @Test
    void everythingElseNeedsCredentials() throws Exception {
        for (String path : List.of("/actuator/hawtio/", "/actuator/hawtio/jolokia", "/actuator/jolokia",
                "/actuator/jolokia/read/java.lang:type=Memory", "/actuator/metrics", "/actuator/env",
                "/api/dead-letters")) {
            HttpResponse<String> anonymous = http.get(path, null);
            assertThat(anonymous.statusCode()).as("anonymous " + path).isEqualTo(401);
            assertThat(anonymous.body()).as(path).doesNotContain("HeapMemoryUsage");
            assertThat(http.get(path, "test-operator:wrong-password").statusCode()).as("wrong password " + path)
                    .isEqualTo(401);
        }
        // a POST without credentials has no CSRF token either: refused before authentication
        assertThat(http.post("/actuator/jolokia", MEMORY_READ, null).statusCode()).isEqualTo(403);
        assertThat(http.post("/actuator/jolokia", MEMORY_READ, "test-operator:wrong-password").statusCode()).isEqualTo(401);
        // Hawtio's connect proxy is closed to everybody
        assertThat(http.get("/actuator/hawtio/proxy/enabled", null).statusCode()).isEqualTo(401);
        assertThat(http.get("/actuator/hawtio/proxy/enabled", OPERATOR).statusCode()).isEqualTo(403);
        assertThat(http.post("/api/dead-letters/redeliver", "{}", null).statusCode()).isEqualTo(403);
        assertThat(http.post("/api/dead-letters/redeliver", "{}", "test-viewer:wrong").statusCode()).isEqualTo(401);
        // scripts get a Basic challenge; Hawtio's own calls get none (no browser dialog)
        assertThat(http.get("/api/dead-letters", null).headers().firstValue("WWW-Authenticate"))
                .hasValue("Basic realm=\"legacy-gateway\"");
        assertThat(http.get("/actuator/jolokia", null).headers().firstValue("WWW-Authenticate")).isEmpty();
    }

    @Test
    void aBrowserIsSentToTheLoginForm() throws Exception {
        HttpResponse<String> page = http.send(http.request("/actuator/hawtio/", null).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location")).hasValue(url("/login"));
    }

    @Test
    void aViewerReadsMBeansThroughJolokia() throws Exception {
        HttpResponse<String> response = http.post("/actuator/jolokia", MEMORY_READ, VIEWER);
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode json = JSON.readTree(response.body());
        assertThat(json.path("status").asInt()).isEqualTo(200);
        assertThat(json.path("value").path("used").asLong()).isPositive();

        HttpResponse<String> viaHawtio = http.get("/actuator/hawtio/jolokia/read/java.lang:type=Runtime/Uptime", VIEWER);
        assertThat(viaHawtio.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(viaHawtio.body()).path("value").asLong()).isPositive();
    }

    @Test
    void onlyAnOperatorInvokesOperations() throws Exception {
        String exec = "{\"type\":\"exec\",\"mbean\":\"java.lang:type=Threading\",\"operation\":\"findDeadlockedThreads\"}";
        HttpResponse<String> viewer = http.post("/actuator/jolokia", exec, VIEWER);
        assertThat(viewer.statusCode()).isEqualTo(403);
        assertThat(viewer.body()).contains("'exec' requests need the OPERATOR role");
        // hidden in a bulk request, and as a GET
        assertThat(http.post("/actuator/jolokia", "[" + MEMORY_READ + "," + exec + "]", VIEWER).statusCode()).isEqualTo(403);
        assertThat(http.get("/actuator/jolokia/exec/java.lang:type=Threading/findDeadlockedThreads", VIEWER).statusCode())
                .isEqualTo(403);
        assertThat(http.get("/actuator/jolokia/?p=/exec/java.lang:type=Threading/findDeadlockedThreads", VIEWER)
                .statusCode()).isEqualTo(403);
        // HEAD runs a GET request in the servlet: refused the same way
        assertThat(http.send(http.request("/actuator/jolokia/exec/java.lang:type=Threading/findDeadlockedThreads", VIEWER)
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode()).isEqualTo(403);

        // except the read-only queries Hawtio's console needs to show a viewer anything
        HttpResponse<String> tree = http.post("/actuator/jolokia", "{\"type\":\"exec\",\"mbean\":"
                + "\"hawtio:type=security,name=RBACRegistry\",\"operation\":\"list()\",\"arguments\":[]}", VIEWER);
        assertThat(tree.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(tree.body()).path("status").asInt()).isEqualTo(200);

        HttpResponse<String> operator = http.post("/actuator/jolokia", exec, OPERATOR);
        assertThat(operator.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(operator.body()).path("status").asInt()).isEqualTo(200);
    }

    /**
     * CVE-2018-1000130 / GHSA-c9ff-59g8-m36q: a proxy request would make the gateway connect to the JMX URL in its
     * {@code target}. The URL points at a socket this test listens on, so an attempt would be seen.
     */
    @Test
    void aJolokiaProxyRequestIsRefusedWithoutConnectingAnywhere() throws Exception {
        assertThat(ClassUtils.isPresent("org.jolokia.service.jsr160.Jsr160RequestHandler", null))
                .as("jolokia-service-jsr160 is excluded from the build").isFalse();
        try (ServerSocket jmxTarget = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String target = "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxTarget.getLocalPort() + "/jmxrmi";
            String proxy = "{\"type\":\"read\",\"mbean\":\"java.lang:type=Memory\",\"attribute\":\"HeapMemoryUsage\","
                    + "\"target\":{\"url\":\"" + target + "\"}}";

            for (String path : List.of("/actuator/jolokia", "/actuator/hawtio/jolokia")) {
                HttpResponse<String> refused = http.post(path, proxy, OPERATOR);
                assertThat(refused.statusCode()).as(path).isEqualTo(403);
                assertThat(refused.body()).as(path).isEqualTo(PROXY_REFUSAL);
            }
            assertThat(http.post("/actuator/jolokia", "[" + MEMORY_READ + "," + proxy + "]", OPERATOR).body())
                    .isEqualTo(PROXY_REFUSAL);
            assertThat(http.get("/actuator/jolokia/read/java.lang:type=Memory?target="
                    + URLEncoder.encode(target, StandardCharsets.UTF_8), OPERATOR).body()).isEqualTo(PROXY_REFUSAL);

            jmxTarget.setSoTimeout(500);
            try (Socket attempt = jmxTarget.accept()) {
                throw new AssertionError("the gateway connected to the proxy target from " + attempt.getRemoteSocketAddress());
            } catch (SocketTimeoutException expected) {
                // no connection was attempted
            }
        }
    }

    @Test
    void apiReadsNeedAViewerAndWritesAnOperator() throws Exception {
        // 403 means "not authorized"; an authorized POST without its required dryRun is a 400
        assertThat(http.get("/api/dead-letters", VIEWER).statusCode()).isEqualTo(200);
        assertThat(http.post("/api/dead-letters/redeliver", "{}", VIEWER).statusCode()).isEqualTo(403);
        assertThat(http.post("/api/dead-letters/redeliver", "{}", OPERATOR).statusCode()).isEqualTo(400);
        assertThat(http.get("/actuator/metrics", VIEWER).statusCode()).isEqualTo(200);
        assertThat(http.post("/actuator/loggers/io.legacygateway", "{\"configuredLevel\":\"INFO\"}", VIEWER).statusCode())
                .isEqualTo(403);
    }

    /** A browser session (form login, cookie) must echo the XSRF-TOKEN cookie for any POST, as Hawtio does. */
    @Test
    void aSessionNeedsTheCsrfTokenForPosts() throws Exception {
        CookieManager cookies = new CookieManager();
        HttpClient browser = HttpClient.newBuilder().cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        String form = browser.send(http.request("/login", null).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher csrf = Pattern.compile("name=\"_csrf\" type=\"hidden\" value=\"([^\"]+)\"").matcher(form);
        assertThat(csrf.find()).as("login form has a CSRF field").isTrue();
        HttpResponse<String> login = browser.send(http.request("/login", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=test-viewer&password=test-viewer-secret&_csrf="
                        + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(login.headers().firstValue("Location")).hasValue(url("/actuator/hawtio/"));
        assertThat(login.headers().allValues("Set-Cookie")).as("session cookie not sent by other sites' requests")
                .anyMatch(c -> c.startsWith("JSESSIONID=") && c.contains("SameSite=Lax"));

        HttpRequest.Builder jolokia = http.request("/actuator/hawtio/jolokia", null).header("Content-Type", "text/json")
                .POST(HttpRequest.BodyPublishers.ofString(MEMORY_READ));
        assertThat(browser.send(jolokia.build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(403);
        String token = cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("XSRF-TOKEN"))
                .findFirst().orElseThrow().getValue();
        HttpResponse<String> withToken = browser.send(jolokia.header("X-XSRF-TOKEN", token).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(withToken.statusCode()).isEqualTo(200);
        assertThat(withToken.body()).contains("\"status\":200");
    }

    private String url(String path) {
        return "http://localhost:" + port + path;
    }
}
