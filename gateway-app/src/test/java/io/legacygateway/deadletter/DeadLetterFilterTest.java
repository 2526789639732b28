package io.legacygateway.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Filters, requests, reason patterns and the pace: parsing, errors that name the key, and exact waits. */
class DeadLetterFilterTest {

    private static final Instant T = Instant.parse("2026-05-01T10:00:00Z");

    private static DeadLetter letter(String id, String eventId, String type, String subject, String reasonClass,
                                     String reason, String consumer, Instant at) {
        return new DeadLetter(id, "DLQ.q", "q", "q", eventId, type, subject, null, reasonClass, reason, null, 1,
                consumer, at, at, at, null, 0, null, null);
    }

    @Test
    void everyConditionMustHold() {
        DeadLetter d = letter("ID:1", "evt-1", "OrderCreated", "O-1", "BUSINESS_RULE",
                "the effect changed no row", "wallet", T);
        assertThat(DeadLetterFilter.ALL.matches(d)).isTrue();
        assertThat(DeadLetterFilter.parse("type=OrderCreated&reasonClass=business_rule&reason=NO ROW").matches(d))
                .isTrue();
        assertThat(DeadLetterFilter.parse("type=OrderPaid").matches(d)).isFalse();
        assertThat(DeadLetterFilter.parse("subject=O-1&consumer=wallet").matches(d)).isTrue();
        assertThat(DeadLetterFilter.parse("from=2026-05-01T10:00:00Z&to=2026-05-01T10:00:01Z").matches(d)).isTrue();
        assertThat(DeadLetterFilter.parse("from=2026-05-02").matches(d)).isFalse();
        assertThat(DeadLetterFilter.parse("to=2026-05-01T10:00:00Z").matches(d)).as("to is exclusive").isFalse();
        assertThat(DeadLetterFilter.parse("ids=ID:9, evt-1").matches(d)).as("event id").isTrue();
        assertThat(DeadLetterFilter.parse("ids=ID:1").matches(d)).as("message id").isTrue();
        assertThat(DeadLetterFilter.parse("ids=ID:2,evt-2").matches(d)).isFalse();
        assertThat(DeadLetterFilter.parse("queue=q&type=").queue()).isEqualTo("q");
        assertThat(DeadLetterFilter.parse("type=OrderCreated&ids=a,b").describe())
                .isEqualTo("type=OrderCreated&ids=a,b");
        assertThat(DeadLetterFilter.ALL.describe()).isEqualTo("(all)");
    }

    @Test
    void badFiltersNameTheKey() {
        assertThatThrownBy(() -> DeadLetterFilter.parse("tpye=OrderCreated"))
                .hasMessageContaining("unknown key 'tpye'");
        assertThatThrownBy(() -> DeadLetterFilter.parse("from=yesterday")).hasMessageContaining("'from' = 'yesterday'");
        assertThatThrownBy(() -> DeadLetterFilter.parse("type")).hasMessageContaining("'type' is not key=value");
        assertThatThrownBy(() -> DeadLetterFilter.parse("from=2026-05-02&to=2026-05-01"))
                .hasMessageContaining("'from' (2026-05-02T00:00:00Z) must be before 'to'");
    }

    @Test
    void restBodiesAreReadStrictly() {
        RedeliveryRequest r = RedeliveryRequest.fromJson(Map.of("queue", "q", "filter", Map.of("type", "OrderCreated"),
                "ids", List.of("evt-1"), "dryRun", true, "ratePerSecond", 5, "inboxPolicy", "redeliver_all"));
        assertThat(r.filter().queue()).isEqualTo("q");
        assertThat(r.filter().type()).isEqualTo("OrderCreated");
        assertThat(r.filter().ids()).containsExactly("evt-1");
        assertThat(r.dryRun()).isTrue();
        assertThat(r.ratePerSecond()).isEqualTo(5);
        assertThat(r.inboxPolicy()).isEqualTo(InboxPolicy.REDELIVER_ALL);
        assertThat(RedeliveryRequest.fromJson(Map.of("dryRun", false)).inboxPolicy())
                .as("default").isEqualTo(InboxPolicy.SKIP_APPLIED);

        assertThatThrownBy(() -> RedeliveryRequest.fromJson(Map.of("queue", "q")))
                .hasMessageContaining("dryRun is required");
        assertThatThrownBy(() -> RedeliveryRequest.fromJson(Map.of("dryrun", true)))
                .hasMessageContaining("unknown field 'dryrun'");
        assertThatThrownBy(() -> RedeliveryRequest.fromJson(Map.of("dryRun", true, "inboxPolicy", "SKIP")))
                .hasMessageContaining("inboxPolicy: 'SKIP' is not one of [SKIP_APPLIED, REDELIVER_ALL, "
                        + "RELEASE_INBOX_AND_REDELIVER]");
        assertThatThrownBy(() -> RedeliveryRequest.fromJson(Map.of("dryRun", true, "ratePerSecond", 0)))
                .hasMessageContaining("ratePerSecond: 0 is outside 1-10000");
        assertThatThrownBy(() -> RedeliveryRequest.fromJson(Map.of("dryRun", true, "force", "yes")))
                .hasMessageContaining("force must be true or false");
        assertThatThrownBy(() -> RedeliveryRequest.fromJson(Map.of("dryRun", true, "discardApplied", true,
                "inboxPolicy", "REDELIVER_ALL"))).hasMessageContaining("discardApplied: only with inboxPolicy "
                + "SKIP_APPLIED");
        assertThatThrownBy(() -> RedeliveryRequest.fromJson(Map.of("dryRun", true, "filter", Map.of("kind", "x"))))
                .hasMessageContaining("unknown key 'kind'");
        assertThatThrownBy(() -> RedeliveryRequest.fromJson(Map.of("dryRun", true, "queue", "a",
                "filter", Map.of("queue", "b")))).hasMessageContaining("queue 'a' and filter.queue 'b' differ");
    }

    @Test
    void reasonsAreGroupedWithTheirPerMessageValuesMasked() {
        assertThat(DeadLetterGroup.pattern("the effect of OrderCreated changed no row (requireRows): "
                + ":data.amount=5.50, :data.customerId=zed")).isEqualTo("the effect of OrderCreated changed no row "
                + "(requireRows): :data.amount=…, :data.customerId=…");
        assertThat(DeadLetterGroup.pattern("failed on delivery 6 of 6: SQL state [55P03]; lock timeout"))
                .isEqualTo("failed on delivery # of #: SQL state [55P03]; lock timeout");
        assertThat(DeadLetterGroup.pattern("message 4b1f0c2e-9d9a-4c1e-8a55-0d6f1c2b3a4d is parked at sequence 3"))
                .isEqualTo("message … is parked at sequence #");
        assertThat(DeadLetterGroup.pattern("OrderShipped version 1 is not accepted (accept: OrderCreated:1)"))
                .isEqualTo("OrderShipped version # is not accepted (accept: OrderCreated:1)");
        assertThat(DeadLetterGroup.pattern("Unrecognized token 'abc': was expecting")).isEqualTo(
                "Unrecognized token '…': was expecting");
    }

    @Test
    void thePaceWaitsExactlyTheIntervalAndNeverBurstsToCatchUp() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-05-01T10:00:00Z"));
        List<Duration> waits = new ArrayList<>();
        RedeliveryPace pace = new RedeliveryPace(clock, d -> {
            waits.add(d);
            clock.advance(d);
        }, 4);
        pace.awaitTurn();
        pace.awaitTurn();
        clock.advance(Duration.ofMillis(100));
        pace.awaitTurn();
        clock.advance(Duration.ofSeconds(5));
        pace.awaitTurn();
        pace.awaitTurn();
        assertThat(waits).containsExactly(Duration.ofMillis(250), Duration.ofMillis(150), Duration.ofMillis(250));
        assertThatThrownBy(() -> new RedeliveryPace(clock, d -> { }, 0)).hasMessageContaining("at least 1");
        assertThat(Set.of(InboxPolicy.values())).hasSize(3);
    }
}
