package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.store.OutboxStore;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.ops.RetentionJob;
import io.legacygateway.testsupport.DbTimes;
import io.legacygateway.testsupport.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * Retention deletes exactly the published rows older than a relay's {@code retention}, and a consumer's inbox rows
 * older than {@code gateway.retention.inbox}, in batches of {@code gateway.retention.batch-size} (3 here); waiting,
 * retrying, FAILED and young rows stay. The clock is pinned, so the cutoffs are exact. On every database
 * (subclasses).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@TestPropertySource(properties = {"gateway.retention.batch-size=3", "gateway.retention.interval=1h"})
@Import(RetentionContractTest.Pinned.class)
abstract class RetentionContractTest extends RelayTestSupport {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @TestConfiguration
    static class Pinned {
        @Bean
        @Primary
        MutableClock pinnedClock() {
            return new MutableClock(T0);
        }
    }

    @Autowired
    RetentionJob retention;
    @Autowired
    MeterRegistry meters;
    @Autowired
    CamelContext camel;

    JdbcTemplate db;

    @BeforeEach
    void clean() {
        db = rows.jdbc();
        db.update("DELETE FROM gateway_outbox_rejection");
        db.update("DELETE FROM inbox");
    }

    /** Sets a row's state and published-at as if it had been published (or parked) at that time. */
    private void set(String id, String status, Instant publishedAt) {
        db.update("UPDATE outbox SET status = ?, published_at = ? WHERE id = ?", status,
                publishedAt == null ? null : DbTimes.bind(db, publishedAt), id);
    }

    private List<String> remaining() {
        return db.queryForList("SELECT id FROM outbox ORDER BY seq", String.class);
    }

    @Test
    void statusModeDeletesExactlyThePublishedRowsOlderThanTheRetentionInBoundedBatches() {
        OutboxRelay relay = relay(unique("ret-status"), "queue:it.retention", Map.of("retention", "7d"));
        List<String> old = rows.insertSequence("order-old", 7);
        old.forEach(id -> set(id, "PUBLISHED", T0.minus(Duration.ofDays(8))));
        String young = rows.insert("order-young", "OrderCreated", "{}");
        set(young, "PUBLISHED", T0.minus(Duration.ofDays(6)));
        String failed = rows.insert("order-failed", "OrderCreated", "{}");
        set(failed, "FAILED", T0.minus(Duration.ofDays(30)));
        String pending = rows.insert("order-pending", "OrderCreated", "{}");
        String retrying = rows.insert("order-retrying", "OrderCreated", "{}");
        db.update("UPDATE outbox SET retry_count = 2, next_retry_at = ? WHERE id = ?",
                DbTimes.bind(db, T0.plusSeconds(60)), retrying);

        OutboxStore store = (OutboxStore) relay.source();
        Instant cutoff = T0.minus(Duration.ofDays(7));
        int first = relay.transaction().execute(tx -> store.deletePublishedBefore(cutoff, 3));
        assertThat(first).as("one bounded batch").isEqualTo(3);
        assertThat(remaining()).as("the oldest first").doesNotContain(old.get(0), old.get(1), old.get(2))
                .contains(old.get(3));

        RetentionJob.Run run = retention.runOnce();
        assertThat(run.outboxRows()).isEqualTo(4);
        assertThat(remaining()).containsExactly(young, failed, pending, retrying);
        assertThat(meters.counter("gateway.retention.deleted", "kind", "outbox", "owner", relay.name()).count()).isEqualTo(4.0);
        assertThat(retention.runOnce().outboxRows()).as("nothing left to delete").isZero();
    }

    @Test
    void timestampModeKeepsFailedRowsAlthoughTheyAreStamped() {
        OutboxRelay relay = relay(unique("ret-ts"), "queue:it.retention",
                Map.of("markMode", "TIMESTAMP", "statusColumn", "none", "retention", "1d", "maxAttempts", "1"));
        String old = rows.insert("order-1", "OrderCreated", "{}");
        set(old, "PENDING", T0.minus(Duration.ofDays(2)));
        String failed = rows.insert("order-2", "OrderCreated", "{not json");
        String young = rows.insert("order-3", "OrderCreated", "{}");
        set(young, "PENDING", T0.minus(Duration.ofHours(1)));
        String pending = rows.insert("order-4", "OrderCreated", "{}");
        assertThat(drain(relay)).as("only the pending row is claimable; it is published").isEqualTo(1);
        // the FAILED row was stamped at T0 by the relay; make it look old
        set(failed, "PENDING", T0.minus(Duration.ofDays(3)));
        set(pending, "PENDING", T0.minus(Duration.ofDays(5)));

        assertThat(retention.runOnce().outboxRows()).isEqualTo(2);
        assertThat(remaining()).containsExactly(failed, young);
        assertThat(db.queryForObject("SELECT state FROM gateway_outbox_rejection", String.class)).isEqualTo("FAILED");
    }

    @Test
    void inboxRowsOlderThanTheInboxRetentionAreDeletedPerConsumer() {
        String consumer = unique("ret-inbox");
        TemplatedRouteBuilder.builder(camel, InboxConsumerTemplate.TEMPLATE).routeId("inbox-consumer-" + consumer)
                .parameter("consumer", consumer).parameter("dataSource", "legacy")
                .parameter("queue", unique("it.retention.inbox")).parameter("accept", "OrderCreated:1")
                .parameter("effectSql", "UPDATE inbox SET processed_at = processed_at WHERE message_id = :id").add();
        Instant old = T0.minus(Duration.ofDays(31));
        for (int i = 0; i < 4; i++) {
            inbox("old-" + i, consumer, old.plusSeconds(i));
        }
        inbox("young", consumer, T0.minus(Duration.ofDays(29)));
        inbox("old-0", "someone-else", old);

        assertThat(retention.runOnce().inboxRows()).isEqualTo(4);
        assertThat(db.queryForList("SELECT CONCAT(message_id, '/', consumer_name) FROM inbox ORDER BY message_id",
                String.class)).containsExactly("old-0/someone-else", "young/" + consumer);
        assertThat(meters.counter("gateway.retention.deleted", "kind", "inbox", "owner", consumer).count()).isEqualTo(4.0);
    }

    private void inbox(String messageId, String consumer, Instant processedAt) {
        db.update("INSERT INTO inbox (message_id, consumer_name, processed_at) VALUES (?, ?, ?)", messageId, consumer,
                java.sql.Timestamp.from(processedAt));
    }
}
