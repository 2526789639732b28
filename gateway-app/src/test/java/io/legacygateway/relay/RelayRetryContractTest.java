package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.DbTimes;
import io.legacygateway.testsupport.MutableClock;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.ActiveProfiles;

/**
 * Failed rows, retries and FAILED rows, on every database (subclasses). The embedded broker refuses one address: the
 * test gives it address settings at runtime without auto-create, so the relay is told the queue does not exist (the
 * broker would otherwise drop the message silently). The clock is pinned and the jitter is 0.5 (the computed wait
 * exactly), so every retry time is exact.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@Import(RelayRetryContractTest.Pinned.class)
abstract class RelayRetryContractTest extends RelayTestSupport {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @TestConfiguration
    static class Pinned {
        @Bean
        @Primary
        MutableClock pinnedClock() {
            return new MutableClock(T0);
        }

        @Bean
        @Primary
        RetryJitter exactJitter() {
            return () -> 0.5;
        }
    }

    @Autowired
    MutableClock clock;
    @Autowired
    Clock applicationClock;
    @Autowired
    MeterRegistry meters;
    @Autowired
    EmbeddedActiveMQ embedded;
    @Autowired
    RelayOperations operations;

    @BeforeEach
    void pinClock() {
        clock.set(T0);
        rows.jdbc().update("DELETE FROM gateway_outbox_rejection");
        rows.jdbc().update("DELETE FROM gateway_operation_audit");
    }

    private ActiveMQServer server() {
        return embedded.getActiveMQServer();
    }

    /** The broker will neither find nor create this queue: the relay must report each send to it as refused. */
    private void refuse(String address) {
        server().getAddressSettingsRepository().addMatch(address,
                new AddressSettings().setAutoCreateAddresses(false).setAutoCreateQueues(false));
    }

    /** The operator's fix: the queue now exists. */
    private void createQueue(String address) throws Exception {
        server().createQueue(QueueConfiguration.of(address).setRoutingType(RoutingType.ANYCAST).setDurable(true)
                .setAutoCreateAddress(true));
    }

    private String key(String eventId) {
        return rows.jdbc().queryForObject("SELECT seq FROM outbox WHERE id = ?", String.class, eventId);
    }

    private int retryCount(String eventId) {
        return rows.jdbc().queryForObject("SELECT retry_count FROM outbox WHERE id = ?", Integer.class, eventId);
    }

    private Instant nextRetryAt(String eventId) {
        return DbTimes.instant(rows.jdbc(), "SELECT next_retry_at FROM outbox WHERE id = ?", eventId);
    }

    private String lastError(String eventId) {
        return rows.jdbc().queryForObject("SELECT last_error FROM outbox WHERE id = ?", String.class, eventId);
    }

    private double counter(String name, OutboxRelay relay) {
        return meters.counter(name, "relay", relay.name()).count();
    }

    private List<String> ids(String queue) {
        return broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
    }

    @Test
    void theApplicationRunsOnThePinnedClock() {
        assertThat(applicationClock.instant()).isEqualTo(T0);
    }

    @Test
    void aRowTheBrokerRefusesIsRetriedWithBackoffAndParkedAfterMaxAttemptsWhileOtherAggregatesFlow() {
        String prefix = unique("it.retry");
        refuse(prefix + ".Refused");
        OutboxRelay relay = relay(unique("retry"), "queue:" + prefix + ".{eventType}",
                Map.of("maxAttempts", "3", "retryBackoff", "10s", "maxRetryBackoff", "1h"));
        String a1 = rows.insert("order-a", "Refused", "{\"n\":1}");
        String a2 = rows.insert("order-a", "Accepted", "{\"n\":2}");
        String b1 = rows.insert("order-b", "Accepted", "{\"n\":1}");

        assertThat(drain(relay)).as("only order-b: order-a's second row waits behind its first").isEqualTo(1);
        assertThat(rows.status(a1)).isEqualTo("PENDING");
        assertThat(retryCount(a1)).isEqualTo(1);
        assertThat(nextRetryAt(a1)).isEqualTo(T0.plusSeconds(10));
        assertThat(lastError(a1)).startsWith("refused by the broker: queue '" + prefix + ".Refused' does not exist");
        assertThat(rows.status(a2)).isEqualTo("PENDING");
        assertThat(retryCount(a2)).as("a row that waits behind another is not charged").isZero();

        // before the retry is due, other aggregates keep flowing and order-a waits
        String b2 = rows.insert("order-b", "Accepted", "{\"n\":2}");
        clock.set(T0.plusSeconds(9));
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(retryCount(a1)).isEqualTo(1);

        clock.set(T0.plusSeconds(10));
        assertThat(drain(relay)).isZero();
        assertThat(retryCount(a1)).isEqualTo(2);
        assertThat(nextRetryAt(a1)).as("the wait doubles").isEqualTo(T0.plusSeconds(10 + 20));

        clock.set(T0.plusSeconds(29));
        assertThat(drain(relay)).isZero();
        assertThat(retryCount(a1)).isEqualTo(2);

        clock.set(T0.plusSeconds(30));
        assertThat(drain(relay)).isZero();
        assertThat(rows.status(a1)).as("parked after exactly maxAttempts").isEqualTo("FAILED");
        assertThat(retryCount(a1)).isEqualTo(3);
        assertThat(nextRetryAt(a1)).isNull();
        assertThat(lastError(a1)).contains("does not exist");

        assertThat(drain(relay)).as("failedRowPolicy CONTINUE: order-a's next row follows").isEqualTo(1);
        assertThat(rows.status(a2)).isEqualTo("PUBLISHED");
        assertThat(ids(prefix + ".Accepted")).containsExactly(b1, b2, a2);
        assertThat(counter("gateway.outbox.refused", relay)).isEqualTo(3.0);
        assertThat(counter("gateway.outbox.retries", relay)).isEqualTo(2.0);
        assertThat(counter("gateway.outbox.parked", relay)).isEqualTo(1.0);
        assertThat(counter("gateway.outbox.publish.failures", relay)).as("no outage").isZero();
    }

    @Test
    void aRowThatCannotBecomeAnEventFollowsTheSameRetryPath() {
        String queue = unique("it.retry-bad");
        OutboxRelay relay = relay(unique("retry-bad"), "queue:" + queue,
                Map.of("maxAttempts", "2", "retryBackoff", "1m", "maxRetryBackoff", "1m"));
        String bad = rows.insert("order-x", "OrderCreated", "{not json");
        String after = rows.insert("order-x", "OrderPaid", "{}");

        assertThat(drain(relay)).isZero();
        assertThat(rows.status(bad)).isEqualTo("PENDING");
        assertThat(nextRetryAt(bad)).isEqualTo(T0.plusSeconds(60));
        assertThat(lastError(bad)).startsWith("payload: not valid JSON");

        // the legacy application repairs the row before its next attempt
        rows.jdbc().update("UPDATE outbox SET payload = '{\"fixed\":true}' WHERE id = ?", bad);
        clock.set(T0.plusSeconds(60));
        assertThat(drain(relay)).isEqualTo(2);
        assertThat(ids(queue)).containsExactly(bad, after);
        assertThat(counter("gateway.outbox.rejected", relay)).isEqualTo(1.0);
    }

    @Test
    void aBrokerOutageChargesNoRow() throws Exception {
        String queue = unique("it.outage");
        OutboxRelay relay = relay(unique("outage"), "queue:" + queue, Map.of("maxAttempts", "2"));
        List<String> ids = rows.insertSequence("order-o", 5);
        server().stop();
        try {
            assertThat(drain(relay)).isZero();
            clock.advance(Duration.ofMinutes(5));
            assertThat(drain(relay)).isZero();
        } finally {
            server().start();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> server().isActive());
        }
        assertThat(counter("gateway.outbox.publish.failures", relay)).isEqualTo(2.0);
        for (String id : ids) {
            assertThat(rows.status(id)).isEqualTo("PENDING");
            assertThat(retryCount(id)).as("an outage is not the row's failure").isZero();
            assertThat(nextRetryAt(id)).isNull();
        }
        assertThat(counter("gateway.outbox.refused", relay)).isZero();

        clock.advance(Duration.ofMinutes(5));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> drain(relay) == 5);
        assertThat(ids(queue)).containsExactlyElementsOf(ids);
    }

    @Test
    void blockAggregateHoldsTheLaterRowsOfAFailedRowUntilItIsRetriedAndPublished() throws Exception {
        String prefix = unique("it.block");
        refuse(prefix + ".Refused");
        OutboxRelay relay = relay(unique("block"), "queue:" + prefix + ".{eventType}",
                Map.of("maxAttempts", "1", "failedRowPolicy", "BLOCK_AGGREGATE"));
        String a1 = rows.insert("order-a", "Refused", "{\"n\":1}");
        String a2 = rows.insert("order-a", "Accepted", "{\"n\":2}");
        String a3 = rows.insert("order-a", "Accepted", "{\"n\":3}");
        String b1 = rows.insert("order-b", "Accepted", "{\"n\":1}");

        assertThat(drain(relay)).isEqualTo(1);
        assertThat(rows.status(a1)).isEqualTo("FAILED");
        clock.advance(Duration.ofHours(2));
        assertThat(drain(relay)).as("order-a stays blocked behind its FAILED row").isZero();
        String b2 = rows.insert("order-b", "Accepted", "{\"n\":2}");
        assertThat(drain(relay)).as("other aggregates are not").isEqualTo(1);
        assertThat(rows.status(a2)).isEqualTo("PENDING");
        assertThat(rows.status(a3)).isEqualTo("PENDING");

        createQueue(prefix + ".Refused");
        RelayOperations.RetryResult retried = operations.retry(relay.name(),
                new RelayOperations.RetryRequest(List.of(key(a1)), null, null, null, null, null, null, false));
        assertThat(retried.retried()).isEqualTo(1);
        assertThat(rows.status(a1)).isEqualTo("PENDING");
        assertThat(retryCount(a1)).as("a fresh budget of attempts").isZero();

        assertThat(drain(relay)).isEqualTo(3);
        assertThat(faults.publishedBatches(relay.name()).get(faults.publishedBatches(relay.name()).size() - 1))
                .as("released in outbox order").containsExactly(a1, a2, a3);
        assertThat(ids(prefix + ".Refused")).containsExactly(a1);
        assertThat(ids(prefix + ".Accepted")).containsExactly(b1, b2, a2, a3);
    }

    @Test
    void failedRowsAreRetriedByIdAndByFilterWithADryRunAndEveryRetryIsAudited() {
        String queue = unique("it.manual");
        OutboxRelay relay = relay(unique("manual"), "queue:" + queue, Map.of("maxAttempts", "1"));
        String f1 = rows.insert("cust-1", "OrderCreated", "{broken");
        String f2 = rows.insert("cust-2", "OrderPaid", "{broken");
        String f3 = rows.insert("cust-3", "OrderPaid", "{broken");
        assertThat(drain(relay)).isZero();
        for (String id : List.of(f1, f2, f3)) {
            assertThat(rows.status(id)).isEqualTo("FAILED");
        }

        RelayOperations.Filter paid = RelayOperations.Filter.parse("OrderPaid", null, null, null, null);
        assertThat(operations.failed(relay.name(), paid, 100)).extracting(RelayOperations.FailedRowView::eventId)
                .containsExactly(f2, f3);
        assertThat(operations.failed(relay.name(), RelayOperations.Filter.parse(null, null, null, null,
                "NOT VALID json"), 100)).hasSize(3);
        assertThat(operations.failed(relay.name(), RelayOperations.Filter.parse(null, null,
                Instant.now().plus(Duration.ofDays(1)).toString(), null, null), 100)).as("from: after their time").isEmpty();
        assertThat(operations.failed(relay.name(), RelayOperations.Filter.parse(null, "cust-1", null, null, null), 100))
                .singleElement().satisfies(v -> {
                    assertThat(v.key()).isEqualTo(key(f1));
                    assertThat(v.attempts()).isEqualTo(1);
                    assertThat(v.reason()).startsWith("payload: not valid JSON");
                });

        RelayOperations.RetryResult dry = operations.retry(relay.name(),
                new RelayOperations.RetryRequest(null, "OrderPaid", null, null, null, null, null, true));
        assertThat(dry.dryRun()).isTrue();
        assertThat(dry.matched()).isEqualTo(2);
        assertThat(dry.retried()).isZero();
        assertThat(dry.ids()).containsExactly(key(f2), key(f3));
        assertThat(rows.status(f2)).as("a dry run changes nothing").isEqualTo("FAILED");

        rows.jdbc().update("UPDATE outbox SET payload = '{}' WHERE id IN (?, ?)", f2, f3);
        RelayOperations.RetryResult byFilter = operations.retry(relay.name(),
                new RelayOperations.RetryRequest(null, "OrderPaid", "cust-2", null, null, null, null, false));
        assertThat(byFilter.matched()).isEqualTo(1);
        assertThat(byFilter.retried()).isEqualTo(1);
        RelayOperations.RetryResult byId = operations.retry(relay.name(),
                new RelayOperations.RetryRequest(List.of(key(f3), "999999"), null, null, null, null, null, null, null));
        assertThat(byId.retried()).isEqualTo(1);
        assertThat(byId.notFound()).containsExactly("999999");
        assertThat(rows.status(f2)).isEqualTo("PENDING");
        assertThat(rows.status(f3)).isEqualTo("PENDING");
        assertThat(retryCount(f3)).isZero();

        assertThat(drain(relay)).isEqualTo(2);
        assertThat(ids(queue)).containsExactly(f2, f3);
        assertThat(rows.status(f1)).isEqualTo("FAILED");

        List<Map<String, Object>> audit = rows.jdbc().queryForList(
                "SELECT operation, target, selection, dry_run, affected, actor FROM gateway_operation_audit ORDER BY id");
        assertThat(audit).hasSize(3);
        assertThat(audit).allSatisfy(a -> {
            assertThat(value(a, "operation")).isEqualTo("relay.retry");
            assertThat(value(a, "target")).isEqualTo(relay.name());
            assertThat(String.valueOf(value(a, "actor"))).startsWith("local:");
        });
        assertThat(String.valueOf(value(audit.get(0), "selection"))).contains("\"eventType\":\"OrderPaid\"");
        assertThat(bool(value(audit.get(0), "dry_run"))).isTrue();
        assertThat(((Number) value(audit.get(0), "affected")).intValue()).isEqualTo(2);
        assertThat(bool(value(audit.get(1), "dry_run"))).isFalse();
        assertThat(String.valueOf(value(audit.get(2), "selection"))).contains(key(f3)).contains("999999");
    }

    @Test
    void inDeleteModeTheAttemptsAreKeptInTheGatewaysTable() throws Exception {
        String prefix = unique("it.retry-del");
        refuse(prefix + ".Refused");
        OutboxRelay relay = relay(unique("retry-del"), "queue:" + prefix + ".{eventType}",
                Map.of("markMode", "DELETE", "maxAttempts", "2", "retryBackoff", "10s"));
        String a1 = rows.insert("order-a", "Refused", "{}");
        String a2 = rows.insert("order-a", "Accepted", "{}");
        String k1 = key(a1);

        assertThat(drain(relay)).isZero();
        Map<String, Object> entry = entry(k1);
        assertThat(value(entry, "state")).isEqualTo("RETRY");
        assertThat(((Number) value(entry, "attempts")).intValue()).isEqualTo(1);
        assertThat(DbTimes.instant(rows.jdbc(), "SELECT next_retry_at FROM gateway_outbox_rejection WHERE row_key = ?",
                k1)).isEqualTo(T0.plusSeconds(10));
        clock.set(T0.plusSeconds(5));
        assertThat(drain(relay)).as("order-a waits behind its retrying row").isZero();

        clock.set(T0.plusSeconds(10));
        assertThat(drain(relay)).isZero();
        assertThat(value(entry(k1), "state")).isEqualTo("FAILED");
        assertThat(String.valueOf(value(entry(k1), "reason"))).contains("does not exist");
        assertThat(drain(relay)).as("CONTINUE").isEqualTo(1);
        assertThat(rows.jdbc().queryForList("SELECT id FROM outbox", String.class)).containsExactly(a1);
        assertThat(operations.failed(relay.name(), RelayOperations.Filter.parse(null, null, null, null, null), 10))
                .extracting(RelayOperations.FailedRowView::eventId).containsExactly(a1);

        createQueue(prefix + ".Refused");
        assertThat(operations.retry(relay.name(), new RelayOperations.RetryRequest(List.of(k1), null, null, null, null,
                null, null, false)).retried()).isEqualTo(1);
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(rows.jdbc().queryForList("SELECT id FROM outbox", String.class)).isEmpty();
        assertThat(rows.jdbc().queryForObject("SELECT COUNT(*) FROM gateway_outbox_rejection", Integer.class))
                .as("the entry goes with the published row").isZero();
        assertThat(ids(prefix + ".Accepted")).containsExactly(a2);
        assertThat(ids(prefix + ".Refused")).containsExactly(a1);
    }

    @Test
    void inStatusModeWithoutRetryColumnsTheAttemptsAreKeptInTheGatewaysTable() {
        String prefix = unique("it.retry-nocol");
        refuse(prefix + ".Refused");
        OutboxRelay relay = relay(unique("retry-nocol"), "queue:" + prefix + ".{eventType}",
                Map.of("retryCountColumn", "none", "nextRetryAtColumn", "none", "maxAttempts", "2",
                        "retryBackoff", "10s"));
        String a1 = rows.insert("order-a", "Refused", "{}");
        String a2 = rows.insert("order-a", "Accepted", "{}");
        String k1 = key(a1);

        assertThat(drain(relay)).isZero();
        assertThat(rows.status(a1)).isEqualTo("PENDING");
        assertThat(retryCount(a1)).as("the column is not mapped: untouched").isZero();
        assertThat(value(entry(k1), "state")).isEqualTo("RETRY");
        assertThat(lastError(a1)).as("the reason column is still written").contains("does not exist");
        clock.set(T0.plusSeconds(9));
        assertThat(drain(relay)).isZero();
        assertThat(((Number) value(entry(k1), "attempts")).intValue()).isEqualTo(1);

        clock.set(T0.plusSeconds(10));
        assertThat(drain(relay)).isZero();
        assertThat(rows.status(a1)).isEqualTo("FAILED");
        assertThat(value(entry(k1), "state")).isEqualTo("FAILED");
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(ids(prefix + ".Accepted")).containsExactly(a2);
    }

    @Test
    void inZeroWriteModeARefusedRowIsReadAgainWhenItsRetryIsDue() throws Exception {
        String prefix = unique("it.retry-zw");
        refuse(prefix + ".Refused");
        String a1 = rows.insert("order-a", "Refused", "{}");
        String b1 = rows.insert("order-b", "Accepted", "{}");
        List<Map<String, Object>> before = rows.jdbc().queryForList("SELECT * FROM outbox ORDER BY seq");
        OutboxRelay relay = relay(unique("retry-zw"), "queue:" + prefix + ".{eventType}",
                Map.of("markMode", "ZERO_WRITE", "maxAttempts", "3", "retryBackoff", "10s"));
        String k1 = key(a1);

        // zero-write waits for the oldest transaction of the whole server: other suites may hold long ones
        Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                .until(() -> drain(relay) == 1);
        assertThat(value(entry(k1), "state")).isEqualTo("RETRY");
        clock.set(T0.plusSeconds(10));
        assertThat(drain(relay)).isZero();
        assertThat(((Number) value(entry(k1), "attempts")).intValue()).isEqualTo(2);

        createQueue(prefix + ".Refused");
        clock.set(T0.plusSeconds(30));
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(rows.jdbc().queryForObject("SELECT COUNT(*) FROM gateway_outbox_rejection", Integer.class)).isZero();
        assertThat(ids(prefix + ".Refused")).containsExactly(a1);
        assertThat(ids(prefix + ".Accepted")).containsExactly(b1);
        assertThat(rows.jdbc().queryForList("SELECT * FROM outbox ORDER BY seq")).as("never written")
                .usingRecursiveComparison().isEqualTo(before);
    }

    private Map<String, Object> entry(String rowKey) {
        return rows.jdbc().queryForMap("SELECT * FROM gateway_outbox_rejection WHERE row_key = ?", rowKey);
    }

    private static Object value(Map<String, Object> row, String column) {
        return row.get(OutboxRelayContractTest.column(row, column));
    }

    private static boolean bool(Object v) {
        return v instanceof Boolean b ? b : ((Number) v).intValue() != 0;
    }
}
