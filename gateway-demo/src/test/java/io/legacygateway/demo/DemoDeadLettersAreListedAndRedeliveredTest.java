package io.legacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.testsupport.StandaloneArtemis;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dead-letter walk-through on the demo ({@code docs/dead-letters.md}, "On the demo"): the poison switch sends an
 * order of a customer without a wallet, the wallet's inbox dead-letters it, {@code GET /api/dead-letters} lists it, the
 * wallet opens, and a redelivery by id (dry run first, with the demo login) applies it once. Storage in memory instead
 * of ./data.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("demo")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class DemoDeadLettersAreListedAndRedeliveredTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void inMemory(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.demo.url", () -> "jdbc:h2:mem:demo-dlq-legacy;DB_CLOSE_DELAY=-1");
        registry.add("gateway.datasources.wallet.url", () -> "jdbc:h2:mem:demo-dlq-wallet;DB_CLOSE_DELAY=-1");
        registry.add("spring.artemis.embedded.persistent", () -> "false");
        registry.add("demo.poison-interval", () -> "2s");
        registry.add("camel.main.routes-include-pattern",
                () -> "file:" + StandaloneArtemis.repositoryRoot().resolve("routes/demo") + "/*.yaml");
    }

    @LocalServerPort
    int port;
    @Autowired
    GatewayDataSources dataSources;

    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aPoisonOrderIsListedAndAfterItsWalletOpensARedeliveryAppliesItOnce() throws Exception {
        JsonNode[] found = new JsonNode[1];
        Awaitility.await("a dead letter from the poison switch").atMost(Duration.ofSeconds(60)).until(() -> {
            // no queue named: DLQ.demo.orders.events does not exist before the first dead letter (that would be a 404)
            JsonNode page = JSON.readTree(get("/api/dead-letters/messages?reasonClass=BUSINESS_RULE&body=true"));
            found[0] = page.path("messages").isEmpty() ? null : page.path("messages").get(0);
            return found[0] != null;
        });
        JsonNode dead = found[0];
        String eventId = dead.path("eventId").asText();
        String customer = JSON.readTree(dead.path("body").asText()).path("data").path("customerId").asText();
        assertThat(customer).startsWith("late-");
        assertThat(dead.path("queue").asText()).isEqualTo("DLQ.demo.orders.events");
        assertThat(dead.path("consumer").asText()).isEqualTo(DemoWallet.CONSUMER);
        assertThat(dead.path("inbox").path("state").asText()).isEqualTo("NOT_APPLIED");
        assertThat(get("/api/dead-letters")).contains("DLQ.demo.orders.events").contains("BUSINESS_RULE");

        JdbcTemplate wallet = new JdbcTemplate(dataSources.get("wallet", "test"));
        Awaitility.await("the wallet of " + customer + " opens").atMost(Duration.ofSeconds(30)).until(() ->
                wallet.queryForObject("SELECT COUNT(*) FROM customer_wallet WHERE customer_id = ?", Integer.class,
                        customer) == 1);

        JsonNode dry = JSON.readTree(post("{\"ids\":[\"" + eventId + "\"],\"dryRun\":true}"));
        assertThat(dry.path("moved").asInt()).isEqualTo(1);
        JsonNode moved = JSON.readTree(post("{\"ids\":[\"" + eventId + "\"],\"dryRun\":false}"));
        assertThat(moved.path("moved").asInt()).as(moved.toString()).isEqualTo(1);

        Awaitility.await("applied").atMost(Duration.ofSeconds(30)).until(() -> wallet.queryForObject(
                "SELECT orders_created FROM customer_wallet WHERE customer_id = ?", Integer.class, customer) == 1);
        assertThat(JSON.readTree(get("/api/dead-letters/messages?ids=" + eventId)).path("total").asInt()).isZero();
        assertThat(wallet.queryForObject("SELECT COUNT(*) FROM inbox WHERE message_id = ?", Integer.class, eventId))
                .isEqualTo(1);
    }

    private String get(String path) throws Exception {
        HttpResponse<String> r = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private String post(String body) throws Exception {
        HttpResponse<String> r = http.send(request("/api/dead-letters/redeliver").header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).header("Authorization",
                "Basic " + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8)));
    }
}
