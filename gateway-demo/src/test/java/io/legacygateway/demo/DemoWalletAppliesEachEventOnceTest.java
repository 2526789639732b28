package io.legacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.envelope.EnvelopeCodec;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.camel.CamelContext;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import io.legacygateway.testsupport.StandaloneArtemis;

/**
 * The demo's consumer side, as a user runs it: the {@code routes/demo} YAML (relay and wallet inbox), orders flowing,
 * duplicate deliveries switched on. After some duplicates were skipped, every customer's wallet equals the sum of the
 * order events its inbox applied, each counted once. Storage in memory instead of ./data.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("demo")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class DemoWalletAppliesEachEventOnceTest {

    @DynamicPropertySource
    static void inMemory(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.demo.url", () -> "jdbc:h2:mem:demo-wallet-legacy;DB_CLOSE_DELAY=-1");
        registry.add("gateway.datasources.wallet.url", () -> "jdbc:h2:mem:demo-wallet;DB_CLOSE_DELAY=-1");
        registry.add("spring.artemis.embedded.persistent", () -> "false");
        registry.add("demo.order-interval", () -> "100ms");
        registry.add("demo.duplicate-interval", () -> "300ms");
        // this test counts dead letters: none may come from the demo's poison switch
        registry.add("demo.poison-messages", () -> "false");
        registry.add("camel.main.routes-include-pattern",
                () -> "file:" + StandaloneArtemis.repositoryRoot().resolve("routes/demo") + "/*.yaml");
    }

    @Autowired
    MeterRegistry meters;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    CamelContext camel;

    @Test
    void duplicatesAreSkippedAndEveryWalletIsTheSumOfTheEventsAppliedOnce() throws Exception {
        assertThat(camel.getRoute("inbox-consumer-demo-wallet")).as("wallet route from routes/demo").isNotNull();
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() ->
                count("gateway.inbox.duplicates") >= 3 && count("gateway.inbox.applied") >= 10);
        camel.getRouteController().stopRoute("inbox-consumer-demo-wallet");

        JdbcTemplate wallet = new JdbcTemplate(dataSources.get("wallet", "test"));
        JdbcTemplate legacy = new JdbcTemplate(dataSources.get("demo", "test"));
        Set<String> applied = new HashSet<>(wallet.queryForList(
                "SELECT message_id FROM inbox WHERE consumer_name = 'demo-wallet'", String.class));
        Map<String, BigDecimal> ordered = new HashMap<>();
        Map<String, Integer> created = new HashMap<>();
        Map<Integer, Integer> versions = new HashMap<>();
        EnvelopeCodec codec = new EnvelopeCodec();
        for (Map<String, Object> row : legacy.queryForList(
                "SELECT id, event_type, event_version, payload FROM outbox")) {
            if (applied.contains((String) row.get("ID")) && "OrderCreated".equals(row.get("EVENT_TYPE"))) {
                JsonNode data = codec.parseJson((String) row.get("PAYLOAD"));
                int version = ((Number) row.get("EVENT_VERSION")).intValue();
                versions.merge(version, 1, Integer::sum);
                // version 1 as the legacy code wrote it before its upgrade; version 2 nests customer and total
                String customer = version == 1 ? data.get("customerId").asText() : data.at("/customer/id").asText();
                BigDecimal amount = version == 1 ? data.get("amount").decimalValue()
                        : data.at("/total/amount").decimalValue();
                ordered.merge(customer, amount, BigDecimal::add);
                created.merge(customer, 1, Integer::sum);
            }
        }
        assertThat(versions).as("OrderCreated applied in both versions").containsKeys(1, 2);
        assertThat(count("gateway.inbox.upcast")).as("each version 1 upcast at least once")
                .isGreaterThanOrEqualTo(versions.get(1));
        List<Map<String, Object>> wallets = wallet.queryForList(
                "SELECT customer_id, orders_created, amount_ordered FROM customer_wallet");
        for (Map<String, Object> w : wallets) {
            String customer = (String) w.get("CUSTOMER_ID");
            assertThat(((Number) w.get("ORDERS_CREATED")).intValue()).as(customer)
                    .isEqualTo(created.getOrDefault(customer, 0));
            assertThat((BigDecimal) w.get("AMOUNT_ORDERED")).as(customer)
                    .isEqualByComparingTo(ordered.getOrDefault(customer, BigDecimal.ZERO));
        }
        assertThat(count("gateway.inbox.dead.letters")).isZero();
    }

    private double count(String name) {
        return meters.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }
}
