package io.legacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import org.apache.camel.CamelContext;
import org.apache.camel.api.management.ManagedCamelContext;
import org.springframework.jms.core.JmsTemplate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The README's run command in a test: the demo profile with the repository's {@code routes/demo/*.yaml}, the demo
 * legacy application writing orders (its own outbox), customers (captured by triggers) and billing events (its own
 * table EVT_QUEUE, mapped), the embedded broker, and the HTTP endpoints a user is told to open (Hawtio
 * behind the demo login). Only the storage is in
 * memory instead of ./data.
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability
@ActiveProfiles("demo")
class DemoRunsEndToEndTest {

    @DynamicPropertySource
    static void inMemory(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.demo.url", () -> "jdbc:h2:mem:demo-e2e;DB_CLOSE_DELAY=-1");
        registry.add("gateway.datasources.wallet.url", () -> "jdbc:h2:mem:wallet-e2e;DB_CLOSE_DELAY=-1");
        registry.add("spring.artemis.embedded.persistent", () -> "false");
        registry.add("demo.order-interval", () -> "100ms");
        registry.add("camel.main.routes-include-pattern",
                () -> "file:" + StandaloneArtemis.repositoryRoot().resolve("routes/demo") + "/*.yaml");
    }

    @Autowired
    TestRestTemplate http;
    @Autowired
    MeterRegistry meters;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    CamelContext camel;
    @Autowired
    ConnectionFactory connectionFactory;

    @Test
    void ordersFlowFromTheLegacyTablesToTheBrokerAndTheOperatorPagesAnswer() throws Exception {
        assertThat(camel.getRoute("outbox-relay-demo-orders")).as("relay route from routes/demo").isNotNull();
        JdbcTemplate legacy = new JdbcTemplate(dataSources.get("demo", "test"));

        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(meters.counter("gateway.outbox.published", "relay", "demo-orders").count()).isGreaterThanOrEqualTo(5);
            assertThat(legacy.queryForObject("SELECT COUNT(*) FROM outbox WHERE status = 'PUBLISHED'", Integer.class))
                    .isGreaterThanOrEqualTo(5);
        });
        assertThat(legacy.queryForObject("SELECT COUNT(*) FROM outbox WHERE status = 'FAILED'", Integer.class)).isZero();

        // the customers table has no outbox code: its changes arrive through the capture triggers
        assertThat(camel.getRoute("outbox-relay-demo-customers")).isNotNull();
        assertThat(camel.getRoute("outbox-relay-demo-billing")).isNotNull();
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(meters.counter("gateway.outbox.published", "relay", "demo-customers").count())
                    .isGreaterThanOrEqualTo(5);
            assertThat(legacy.queryForObject("SELECT COUNT(*) FROM customer_outbox WHERE status = 'PUBLISHED'"
                    + " AND event_type = 'CustomerInserted'", Integer.class)).as("the five seeded customers").isEqualTo(5);
            assertThat(meters.counter("gateway.outbox.published", "relay", "demo-billing").count())
                    .isGreaterThanOrEqualTo(1);
            assertThat(legacy.queryForObject("SELECT COUNT(*) FROM EVT_QUEUE WHERE DONE_AT IS NOT NULL", Integer.class))
                    .isGreaterThanOrEqualTo(1);
        });
        assertThat(legacy.queryForObject("SELECT COUNT(*) FROM EVT_QUEUE WHERE ERR_TEXT IS NOT NULL", Integer.class))
                .isZero();
        assertThat(meters.counter("gateway.outbox.rejected", "relay", "demo-billing").count()).isZero();
        // the billing rows' XML reached the broker as the JSON contract, through the relay's step route
        ManagedCamelContext managed = camel.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class);
        assertThat(managed.getManagedProcessor("steps-demo-billing").getExchangesCompleted())
                .as("one exchange per billing event").isGreaterThanOrEqualTo(1);
        Message published = new JmsTemplate(connectionFactory).browse("demo.billing.events",
                (session, browser) -> (Message) browser.getEnumeration().nextElement());
        JsonNode envelope = new ObjectMapper().readTree(((TextMessage) published).getText());
        assertThat(envelope.get("datacontenttype").asText()).isEqualTo("application/json");
        JsonNode data = envelope.get("data");
        assertThat(data.get("invoice").asText()).matches("INV-[0-9]+").isEqualTo(envelope.get("subject").asText().strip());
        assertThat(data.get("orderId").asText()).isNotBlank();
        assertThat(data.get("currency").asText()).isEqualTo("EUR");
        assertThat(data.get("amount").isNumber()).isTrue();
        assertThat(meters.counter("gateway.outbox.rejected", "relay", "demo-customers").count()).isZero();

        assertThat(http.getForEntity("/actuator/health", String.class).getBody()).contains("\"status\":\"UP\"");
        assertThat(http.getForEntity("/actuator/prometheus", String.class).getBody())
                .contains("gateway_outbox_published_total{relay=\"demo-orders\"}");
        // Hawtio needs the demo login (application-demo.yml), also in the demo
        assertThat(http.getForEntity("/actuator/hawtio/", String.class).getStatusCode())
                .isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(http.withBasicAuth("demo", "demo").getForEntity("/actuator/hawtio/", String.class).getStatusCode())
                .isEqualTo(HttpStatus.OK);
    }
}
