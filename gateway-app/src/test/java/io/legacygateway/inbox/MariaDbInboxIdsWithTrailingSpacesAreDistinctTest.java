package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.OnMariaDb;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * MariaDB's {@code utf8mb4_bin} is PAD SPACE: {@code evt-1} and {@code evt-1 } compared equal, so the inbox took the
 * second event for a duplicate of the first and skipped its effect. The inbox tables are created NO PAD
 * ({@code utf8mb4_nopad_bin}): both events are applied. A table that still pads (created by an earlier version, or
 * by hand with a default collation) is refused at start, naming the table and the ALTER that fixes it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnMariaDb(dataSource = "target")
class MariaDbInboxIdsWithTrailingSpacesAreDistinctTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    @Test
    void idsThatDifferOnlyInTrailingSpacesAreTwoEvents() {
        String queue = unique("it.pad");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope first = withId(orderCreated("alice", "1"), "evt-1");
        EventEnvelope second = withId(orderCreated("bob", "2"), "evt-1 ");
        EventEnvelope third = withId(orderCreated("carol", "3"), "evt-1  ");
        send(queue, first);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> faults.outcomes("evt-1").size() == 1);
        send(queue, second, third);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> count(queue) == 0
                && faults.outcomes("evt-1 ").size() == 1 && faults.outcomes("evt-1  ").size() == 1);
        assertThat(faults.outcomes("evt-1 ")).containsExactly(InboxOutcome.APPLIED);
        assertThat(faults.outcomes("evt-1  ")).containsExactly(InboxOutcome.APPLIED);
        assertThat(effects()).isEqualTo(3);
        assertThat(inboxRows(consumer)).isEqualTo(3);
        assertThat(counter("gateway.inbox.duplicates", consumer)).isZero();
    }

    @Test
    void anInboxTableThatIgnoresTrailingSpacesIsRefusedAtStartNamingTheFix() {
        target.execute("CREATE TABLE IF NOT EXISTS padded_inbox (message_id VARCHAR(255) NOT NULL, consumer_name"
                + " VARCHAR(64) NOT NULL, processed_at DATETIME(6) NOT NULL, PRIMARY KEY (message_id, consumer_name))"
                + " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
        assertThatThrownBy(() -> factory.create(new java.util.HashMap<String, Object>(parameters(unique("wallet"), unique("it.pad"),
                Map.of("inboxTable", "padded_inbox"))), camel))
                .hasMessageContaining("parameter 'inboxTable'").hasMessageContaining("padded_inbox")
                .hasMessageContaining("utf8mb4_bin, which ignores trailing spaces (PAD SPACE)")
                .hasMessageContaining("ALTER TABLE `padded_inbox` CONVERT TO CHARACTER SET utf8mb4 COLLATE"
                        + " utf8mb4_nopad_bin");
        target.execute("ALTER TABLE padded_inbox CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin");
        String consumer = unique("wallet");
        String queue = unique("it.pad");
        startConsumer(consumer, queue, Map.of("inboxTable", "padded_inbox"));
        EventEnvelope e = orderCreated("alice", "4");
        send(queue, e);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> effects(e.id()) == 1);
    }

    private static EventEnvelope withId(EventEnvelope e, String id) {
        return new EventEnvelope(e.envelopeVersion(), id, e.source(), e.type(), e.subject(), e.time(),
                e.dataContentType(), e.eventVersion(), e.aggregateType(), e.correlationId(), e.causationId(),
                e.traceparent(), e.data());
    }
}
