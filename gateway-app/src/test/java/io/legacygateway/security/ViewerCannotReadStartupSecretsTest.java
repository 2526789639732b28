package io.legacygateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.testsupport.OperatorHttp;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

/**
 * Secrets passed as {@code -D} (or on the command line) are readable through {@code java.lang:type=Runtime}
 * {@code SystemProperties} and {@code InputArguments}: a viewer reads neither, by name, all attributes, attribute
 * lists, inner paths or MBean patterns ({@code java.lang:*}, {@code *:*}), with or without {@code ignoreErrors};
 * anonymous reads nothing; an operator still does.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability
@ActiveProfiles("test")
class ViewerCannotReadStartupSecretsTest {

    static final String SECRET = "s3cret-" + UUID.randomUUID();
    static final String PROPERTY = "gateway.test.database-password-" + UUID.randomUUID().toString().substring(0, 8);
    static final List<String> HIDDEN = List.of("SystemProperties", "InputArguments");
    static final ObjectMapper JSON = new ObjectMapper();

    static {
        System.setProperty(PROPERTY, SECRET);
    }

    @LocalServerPort
    int port;

    final OperatorHttp http = new OperatorHttp(() -> "http://localhost:" + port, Duration.ofSeconds(60));

    @Test
    void aViewerReadsNoSystemPropertyNorCommandLine() throws Exception {
        List<String> gets = List.of(
                "/read/java.lang:type=Runtime/SystemProperties",
                "/read/java.lang:type=Runtime/SystemProperties/" + PROPERTY,
                "/read/java.lang:type=Runtime/InputArguments",
                "/read/java.lang:type=Runtime",
                "/read/java.lang:type=Runtime/Uptime,SystemProperties",
                "/read/java.lang:type=Run*/SystemProperties",
                "/read/java.lang:*",
                "/read/java.lang:*?ignoreErrors=true",
                "/read/*:*?ignoreErrors=true",
                "/read/*:type=Runtime",
                "/?p=/read/java.lang:type=Runtime/SystemProperties",
                "/?%70=/read/java.lang:*");
        List<String> posts = List.of(
                read("\"java.lang:type=Runtime\"", "\"SystemProperties\""),
                read("\"java.lang:type=Runtime\"", "\"InputArguments\""),
                read("\"java.lang:type=Runtime\"", "[\"Uptime\",\"SystemProperties\",\"InputArguments\"]"),
                read("\"java.lang:type=Runtime\"", "null"),
                read("\"java.lang:*\"", "null"),
                read("\"*:*\"", "null").replace("}", ",\"config\":{\"ignoreErrors\":true}}"),
                read("\"java.lang:type=Runtime\"", "[]").replace("}", ",\"config\":{\"ignoreErrors\":true}}"),
                "[" + read("\"java.lang:type=Memory\"", "\"HeapMemoryUsage\"") + ","
                        + read("\"java.lang:type=Runtime\"", "\"SystemProperties\"") + "]");
        for (String base : List.of("/actuator/jolokia", "/actuator/hawtio/jolokia")) {
            for (String get : gets) {
                assertNoSecret("GET " + base + get, http.get(base + get, OperatorSurfacesRequireLoginTest.VIEWER));
                assertThat(http.get(base + get, null).statusCode()).as("anonymous " + get).isEqualTo(401);
            }
            for (String body : posts) {
                assertNoSecret("POST " + base + " " + body, http.post(base, body, OperatorSurfacesRequireLoginTest.VIEWER));
                assertThat(http.post(base, body, null).statusCode()).as("anonymous " + body).isEqualTo(403);
            }
        }
        // the rest of the Runtime MBean stays readable
        HttpResponse<String> uptime = http.get("/actuator/jolokia/read/java.lang:type=Runtime/Uptime",
                OperatorSurfacesRequireLoginTest.VIEWER);
        assertThat(JSON.readTree(uptime.body()).path("value").asLong()).isPositive();
    }

    @Test
    void anOperatorStillReadsThem() throws Exception {
        HttpResponse<String> operator = http.get("/actuator/jolokia/read/java.lang:type=Runtime/SystemProperties",
                OperatorSurfacesRequireLoginTest.OPERATOR);
        assertThat(JSON.readTree(operator.body()).path("value").path(PROPERTY).asText()).isEqualTo(SECRET);
    }

    /** No secret value in the answer, and no hidden attribute with a value (an error text in its place is fine). */
    private static void assertNoSecret(String what, HttpResponse<String> response) throws IOException {
        assertThat(response.body()).as(what).doesNotContain(SECRET);
        JsonNode json = JSON.readTree(response.body());
        for (JsonNode hidden : HIDDEN.stream().flatMap(h -> json.findValues(h).stream()).toList()) {
            assertThat(hidden.isContainerNode()).as(what + ": " + response.body()).isFalse();
        }
        if (json.isObject() && HIDDEN.stream()
                .anyMatch(h -> what.contains("type=Runtime/" + h) || what.contains("\"" + h + "\"}"))) {
            assertThat(json.path("status").asInt()).as(what + ": " + response.body()).isEqualTo(403);
        }
        for (JsonNode r : json.isArray() ? json : List.of(json)) {
            JsonNode value = r.path("value");
            assertThat(value.isArray() && !value.isEmpty() && value.get(0).asText().startsWith("-"))
                    .as(what + ": command line in " + response.body()).isFalse();
            assertThat(value.isObject() && value.has("java.home")).as(what + ": system properties").isFalse();
        }
    }

    private static String read(String mbean, String attribute) {
        return "{\"type\":\"read\",\"mbean\":" + mbean + ",\"attribute\":" + attribute + "}";
    }
}
