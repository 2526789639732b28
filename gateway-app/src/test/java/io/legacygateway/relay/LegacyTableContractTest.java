package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * A legacy events table of its own shape, written once and run against each database by a small subclass: a bigint
 * key, a UUID event id, a CHAR aggregate id, a binary payload, a naive timestamp read in Europe/Berlin, the aggregate
 * type given as a constant; and every mark mode on it (TIMESTAMP, DELETE, ZERO_WRITE). Rows that cannot become
 * events are kept with their reason and never block the others.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class LegacyTableContractTest extends RelayTestSupport {

    static final String TABLE = "evt_queue";
    private static final String NOT_UTF8 = "not valid UTF-8";

    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @Autowired
    MeterRegistry meters;

    protected JdbcTemplate legacy;

    /** CREATE TABLE evt_queue with the columns of this test in the database's types. */
    protected abstract String createTable();

    /** A JSON document as an SQL literal of the database's JSON type. */
    protected String jsonLiteral(String json) {
        return "'" + json + "'";
    }

    /**
     * Makes a row look as if it had been written long ago, where the commit horizon is a time (MariaDB: otherwise a
     * row inserted less than settleTime before the relay's first start counts as not final yet, and is published).
     */
    protected void age(long key) {
    }

    /** Whether the database has a commit horizon for ZERO_WRITE mode. */
    protected abstract boolean zeroWriteSupported();

    @BeforeEach
    void freshTable() {
        legacy = rows.jdbc();
        legacy.execute("DROP TABLE IF EXISTS " + TABLE);
        legacy.execute(createTable());
        legacy.update("DELETE FROM gateway_outbox_rejection");
        legacy.update("DELETE FROM gateway_outbox_position");
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /** The mapping of evt_queue, as a relay YAML would give it. */
    private Map<String, Object> mapping(String markMode) {
        Map<String, Object> p = new HashMap<>();
        p.put("table", TABLE);
        p.put("markMode", markMode);
        p.put("keyColumn", "evt_no");
        p.put("orderColumn", "evt_no");
        p.put("eventIdColumn", "evt_uuid");
        p.put("aggregateType", "Invoice");
        p.put("aggregateIdColumn", "ref");
        p.put("eventTypeColumn", "kind");
        p.put("payloadColumn", "body");
        p.put("occurredAtColumn", "occurred");
        p.put("createdAtColumn", "created");
        p.put("naiveTimestampZone", "Europe/Berlin");
        if (markMode.equals("TIMESTAMP")) {
            p.put("publishedAtColumn", "done_at");
            p.put("lastErrorColumn", "err");
        }
        return p;
    }

    private OutboxRelay legacyRelay(String markMode, String queue, Map<String, Object> extra) {
        Map<String, Object> p = mapping(markMode);
        p.putAll(extra);
        return relay(unique(markMode.toLowerCase().replace('_', '-')), "queue:" + queue, p);
    }

    /** The legacy application's insert: a JSON document as bytes, its business time as a naive Berlin time. */
    protected long insert(String ref, String kind, byte[] body, LocalDateTime occurred) {
        legacy.update("INSERT INTO " + TABLE + " (ref, kind, body, occurred) VALUES (?, ?, ?, ?)", ref, kind, body,
                occurred);
        return legacy.queryForObject("SELECT MAX(evt_no) FROM " + TABLE, Long.class);
    }

    private long insert(String ref, String json) {
        return insert(ref, "InvoiceIssued", json.getBytes(StandardCharsets.UTF_8), LocalDateTime.of(2026, 1, 15, 10, 0));
    }

    private long insertNotUtf8(String ref) {
        return insert(ref, "InvoiceIssued", new byte[] {(byte) 0xC3, (byte) 0x28}, LocalDateTime.of(2026, 1, 15, 10, 0));
    }

    private double rejected(OutboxRelay relay) {
        return meters.counter("gateway.outbox.rejected", "relay", relay.name()).count();
    }

    private List<Map<String, Object>> rejections() {
        return legacy.queryForList("SELECT * FROM gateway_outbox_rejection");
    }

    private static Object value(Map<String, Object> row, String column) {
        return row.get(OutboxRelayContractTest.column(row, column));
    }

    @Test
    void timestampModePublishesTypedValuesAndStampsTheProcessedColumn() throws Exception {
        String queue = unique("it.legacy.ts");
        long first = insert("R-1", "{\"invoice\":\"R-1\",\"amount\":12.50}");
        long bad = insertNotUtf8("R-2");
        long second = insert("R-1", "{\"invoice\":\"R-1\",\"paid\":true}");
        OutboxRelay relay = legacyRelay("TIMESTAMP", queue, Map.of("maxAttempts", "1"));

        assertThat(drain(relay)).isEqualTo(2);
        assertThat(drain(relay)).isZero();

        List<TextMessage> messages = broker.drain(queue);
        assertThat(messages).hasSize(2);
        EventEnvelope e = codec.read(messages.get(0).getText());
        String uuid = legacy.queryForObject("SELECT evt_uuid FROM " + TABLE + " WHERE evt_no = ?", String.class, first);
        assertThat(e.id()).isEqualTo(uuid);
        assertThat(e.aggregateType()).as("constant aggregateType").isEqualTo("Invoice");
        assertThat(e.subject()).as("CHAR(12) without its padding").isEqualTo("R-1");
        assertThat(e.type()).isEqualTo("InvoiceIssued");
        assertThat(e.data().get("amount").decimalValue()).isEqualByComparingTo("12.50");
        assertThat(e.time()).as("10:00 in Berlin in January").isEqualTo(Instant.parse("2026-01-15T09:00:00Z"));
        assertThat(messages.get(0).getStringProperty(EnvelopeMessages.GROUP_ID)).isEqualTo("Invoice:R-1");
        assertThat(codec.read(messages.get(1).getText()).data().get("paid").asBoolean()).isTrue();

        for (long key : List.of(first, second)) {
            Map<String, Object> row = legacy.queryForMap("SELECT * FROM " + TABLE + " WHERE evt_no = ?", key);
            assertThat(value(row, "done_at")).isNotNull();
            assertThat(value(row, "err")).isNull();
        }
        Map<String, Object> parked = legacy.queryForMap("SELECT * FROM " + TABLE + " WHERE evt_no = ?", bad);
        assertThat(value(parked, "done_at")).as("parked: no longer claimed").isNotNull();
        assertThat(String.valueOf(value(parked, "err"))).startsWith("payload: " + NOT_UTF8);
        assertThat(rejected(relay)).isEqualTo(1.0);
        assertThat(rejections()).as("the reason is on the row; the gateway's table tells FAILED from published")
                .hasSize(1);
        assertThat(value(rejections().get(0), "state")).isEqualTo("FAILED");
    }

    @Test
    void aJsonColumnIsAPayload() throws Exception {
        String queue = unique("it.legacy.json");
        insert("R-7", "{}");
        legacy.update("UPDATE " + TABLE + " SET doc = " + jsonLiteral("{\"from\":\"json column\"}") + " WHERE ref = 'R-7'");
        OutboxRelay relay = legacyRelay("TIMESTAMP", queue, Map.of("payloadColumn", "doc"));

        assertThat(drain(relay)).isEqualTo(1);
        assertThat(codec.read(broker.drain(queue).get(0).getText()).data().get("from").asText()).isEqualTo("json column");
    }

    @Test
    void deleteModeDeletesPublishedRowsAndKeepsARejectedRowWithItsReasonWithoutBlockingItsAggregate() throws Exception {
        String queue = unique("it.legacy.delete");
        long first = insert("R-1", "{\"n\":1}");
        long bad = insertNotUtf8("R-1");
        long third = insert("R-1", "{\"n\":3}");
        OutboxRelay relay = legacyRelay("DELETE", queue, Map.of("eventIdColumn", "none", "eventId", "inv-{key}",
                "maxAttempts", "1"));

        assertThat(drain(relay)).isEqualTo(2);
        assertThat(drain(relay)).as("the rejected row is not claimed again").isZero();
        long fourth = insert("R-1", "{\"n\":4}");
        assertThat(drain(relay)).as("nor does it block its aggregate").isEqualTo(1);

        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactly("inv-" + first, "inv-" + third, "inv-" + fourth);
        assertThat(legacy.queryForList("SELECT evt_no FROM " + TABLE, Long.class)).containsExactly(bad);
        List<Map<String, Object>> recorded = rejections();
        assertThat(recorded).hasSize(1);
        assertThat(value(recorded.get(0), "row_key")).isEqualTo(String.valueOf(bad));
        assertThat(value(recorded.get(0), "event_id")).isEqualTo("inv-" + bad);
        assertThat(String.valueOf(value(recorded.get(0), "reason"))).startsWith("payload: " + NOT_UTF8);
        assertThat(String.valueOf(value(recorded.get(0), "source_table"))).endsWith("/" + storedTableName());
        assertThat(rejected(relay)).isEqualTo(1.0);
    }

    @Test
    void deleteModeKeepsPerAggregateOrderWithTwoRelaysOnOneTable() throws Exception {
        String queue = unique("it.legacy.delete-race");
        Map<String, List<String>> expected = new HashMap<>();
        for (int i = 0; i < 40; i++) {
            for (int a = 0; a < 5; a++) {
                expected.computeIfAbsent("order-" + a, k -> new ArrayList<>())
                        .add(rows.insert("order-" + a, "OrderChanged", "{\"n\":" + i + "}"));
            }
        }
        Map<String, Object> deleteMode = Map.of("markMode", "DELETE", "batchSize", "15");
        OutboxRelay one = relay(unique("del-one"), "queue:" + queue, deleteMode);
        OutboxRelay two = relay(unique("del-two"), "queue:" + queue, deleteMode);

        CompletableFuture.allOf(CompletableFuture.runAsync(() -> pollUntilEmpty(one), threads),
                CompletableFuture.runAsync(() -> pollUntilEmpty(two), threads)).get();

        Map<String, List<String>> seen = new HashMap<>();
        for (TextMessage m : broker.drain(queue)) {
            EventEnvelope e = codec.read(m.getText());
            seen.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e.id());
        }
        assertThat(seen).isEqualTo(expected);
    }

    private void pollUntilEmpty(OutboxRelay relay) {
        Awaitility.await().atMost(Duration.ofMinutes(1)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    drain(relay);
                    return legacy.queryForObject("SELECT COUNT(*) FROM outbox", Integer.class) == 0;
                });
    }

    @Test
    void zeroWritePublishesEveryCommittedRowOnceAndNeverWritesToTheTable() throws Exception {
        assumeTrue(zeroWriteSupported(), "no commit horizon on this database");
        String queue = unique("it.legacy.zero");
        long first = insert("R-1", "{\"n\":1}");
        long bad = insertNotUtf8("R-2");
        long second = insert("R-1", "{\"n\":2}");
        List<Map<String, Object>> before = legacy.queryForList("SELECT * FROM " + TABLE + " ORDER BY evt_no");
        OutboxRelay relay = legacyRelay("ZERO_WRITE", queue, Map.of("maxAttempts", "1"));
        AtomicInteger published = new AtomicInteger();

        publishUntil(relay, published, 2);
        assertThat(legacy.queryForList("SELECT * FROM " + TABLE + " ORDER BY evt_no")).as("untouched")
                .usingRecursiveComparison().isEqualTo(before);
        assertThat(rejections()).hasSize(1);
        assertThat(String.valueOf(value(rejections().get(0), "reason"))).startsWith("payload: " + NOT_UTF8);
        assertThat(value(rejections().get(0), "row_key")).isEqualTo(String.valueOf(bad));

        // a later row, and one whose transaction rolls back
        long third = insert("R-1", "{\"n\":3}");
        try (Connection c = dataSources.get("legacy", "test").getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (ref, kind, body) VALUES (?, ?, ?)")) {
                ps.setString(1, "R-9");
                ps.setString(2, "RolledBack");
                ps.setBytes(3, "{}".getBytes(StandardCharsets.UTF_8));
                ps.executeUpdate();
            }
            c.rollback();
        }
        publishUntil(relay, published, 3);

        List<String> ids = broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
        assertThat(ids).containsExactly(uuid(first), uuid(second), uuid(third));
        assertThat(rejected(relay)).as("rejected once, not at every poll").isEqualTo(1.0);
        assertThat(legacy.queryForObject("SELECT COUNT(*) FROM gateway_outbox_position WHERE relay = ?", Integer.class,
                relay.name())).isEqualTo(1);
    }

    @Test
    void zeroWriteWaitsForATransactionThatCommitsLateInsteadOfSkippingIt() throws Exception {
        assumeTrue(zeroWriteSupported(), "no commit horizon on this database");
        String queue = unique("it.legacy.late");
        OutboxRelay relay = legacyRelay("ZERO_WRITE", queue, Map.of());
        AtomicInteger published = new AtomicInteger();
        DataSource ds = dataSources.get("legacy", "test");
        try (Connection late = ds.getConnection()) {
            late.setAutoCommit(false);
            long lateKey;
            try (PreparedStatement ps = late.prepareStatement("INSERT INTO " + TABLE + " (ref, kind, body) VALUES (?, ?, ?)",
                    new String[] {"evt_no"})) {
                ps.setString(1, "R-late");
                ps.setString(2, "Late");
                ps.setBytes(3, "{\"late\":true}".getBytes(StandardCharsets.UTF_8));
                ps.executeUpdate();
                try (var keys = ps.getGeneratedKeys()) {
                    keys.next();
                    lateKey = keys.getLong(1);
                }
            }
            long early = insert("R-early", "{\"early\":true}");
            assertThat(early).as("the committed row has the higher id").isGreaterThan(lateKey);

            // an id cursor would publish 'early' now and never look back at the smaller id; the relay waits
            Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                    .pollInterval(Duration.ofMillis(200)).until(() -> drain(relay) == 0);
            late.commit();
            publishUntil(relay, published, 2);
            assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                    .as("both, in outbox order").containsExactly(uuid(lateKey), uuid(early));
        }
    }

    @Test
    void zeroWriteStartingFromNowSkipsTheRowsAlreadyThere() throws Exception {
        assumeTrue(zeroWriteSupported(), "no commit horizon on this database");
        String queue = unique("it.legacy.now");
        age(insert("R-old", "{\"old\":true}"));
        OutboxRelay relay = legacyRelay("ZERO_WRITE", queue, Map.of("startFrom", "NOW"));
        long fresh = insert("R-new", "{\"new\":true}");

        publishUntil(relay, new AtomicInteger(), 1);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactly(uuid(fresh));
    }

    @Test
    void zeroWriteIsRefusedWhereTheDatabaseHasNoCommitHorizon() {
        assumeTrue(!zeroWriteSupported());
        assertThatThrownBy(() -> legacyRelay("ZERO_WRITE", "x", Map.of()))
                .hasMessageContaining("parameter 'markMode': ZERO_WRITE needs a way to prove");
    }

    @Test
    void aMappingTheGatewayCannotConvertOrThatContradictsItselfFailsNamingTheParameter() {
        assertThatThrownBy(() -> legacyRelay("TIMESTAMP", "x", Map.of("payloadColumn", "flag")))
                .hasMessageContaining("parameter 'payloadColumn': column '")
                .hasMessageContaining("which the gateway cannot convert to the event payload");
        assertThatThrownBy(() -> legacyRelay("TIMESTAMP", "x", Map.of("aggregateTypeColumn", "kind")))
                .hasMessageContaining("parameter 'aggregateType': set either 'aggregateType' (a value) or"
                        + " 'aggregateTypeColumn' (a column), not both");
        assertThatThrownBy(() -> legacyRelay("DELETE", "x", Map.of("statusColumn", "kind")))
                .hasMessageContaining("parameter 'statusColumn': not used in markMode DELETE");
        assertThatThrownBy(() -> legacyRelay("TIMESTAMP", "x", Map.of("publishedAtColumn", "none")))
                .hasMessageContaining("parameter 'publishedAtColumn'")
                .hasMessageContaining("is required in markMode TIMESTAMP");
        assertThatThrownBy(() -> legacyRelay("DELETE", "x", Map.of("eventTypeColumn", "none", "eventType", "{kind}Changed")))
                .hasMessageContaining("parameter 'eventType': unknown placeholder {kind}");
        assertThatThrownBy(() -> legacyRelay("DELETE", "x", Map.of("eventVersion", "v2")))
                .hasMessageContaining("parameter 'eventVersion': 'v2' is not an integer >= 1");
        assertThatThrownBy(() -> legacyRelay("DELETE", "x", Map.of("keyColumn", "evt_no\"--")))
                .hasMessageContaining("parameter 'keyColumn'").hasMessageContaining("is not a safe SQL identifier");
    }

    /**
     * Drains until {@code expected} events were published in total. Zero-write waits for the oldest transaction of the
     * whole database server, so the wait is generous: other suites on this machine may hold long transactions.
     */
    private void publishUntil(OutboxRelay relay, AtomicInteger published, int expected) {
        Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> published.addAndGet(drain(relay)) >= expected);
        assertThat(published.get()).isEqualTo(expected);
    }

    private String uuid(long key) {
        return legacy.queryForObject("SELECT evt_uuid FROM " + TABLE + " WHERE evt_no = ?", String.class, key);
    }

    /** The table name as the database stores it. */
    protected String storedTableName() {
        return TABLE;
    }
}
