package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

/**
 * A legacy table with typed columns only and no text payload column (as the DVD-rental sample's {@code payment}) is
 * published without a trigger: {@code payloadFormat: COLUMNS} makes the event's data a JSON object of the columns
 * {@code payloadColumn} lists, each converted by its type (numbers as numbers, timestamps ISO-8601, bytes base64,
 * booleans, JSON as JSON, NULL as null). Checked against golden data ({@code payload-from-columns/<db>.json}) for a
 * polling relay ({@code TIMESTAMP}) and a {@code ZERO_WRITE} relay; before, such a table could not be relayed at all.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class PayloadFromColumnsContractTest extends RelayTestSupport {

    static final String COLUMNS = "payment_id, customer_id, amount, payment_date, paid_at, day, note, code, receipt,"
            + " refunded, extra";

    private final EnvelopeCodec codec = new EnvelopeCodec();
    /** Reads both sides alike: numbers as written (0.50 stays 0.50). */
    private final ObjectMapper json = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    protected JdbcTemplate legacy;

    /** CREATE TABLE {@code name} with the typed columns, in the database's types (and what zero-write needs). */
    protected abstract String createTable(String name);

    /** The golden data of the two rows, {@code payload-from-columns/<db>.json}. */
    protected abstract String golden();

    /** 2007-02-15 21:25:46.5 UTC as a literal of the paid_at column's type. */
    protected abstract String paidAt();

    /** A JSON document {@code {"k": [1, 2]}} as a literal of the database's JSON column. */
    protected String jsonLiteral() {
        return "'{\"k\": [1, 2]}'";
    }

    @BeforeEach
    void tables() {
        legacy = rows.jdbc();
        for (String table : List.of("payment_poll", "payment_zw")) {
            legacy.execute("DROP TABLE IF EXISTS " + table);
            legacy.execute(createTable(table));
            legacy.update("INSERT INTO " + table + " (payment_id, customer_id, amount, payment_date, paid_at, day, note,"
                    + " code, receipt, refunded, extra) VALUES (1, 341, 7.99, TIMESTAMP '2007-02-15 22:25:46.996577',"
                    + " " + paidAt() + ", DATE '2007-02-15', ?, 'AB', ?, TRUE, " + jsonLiteral()
                    + ")", "said \"hi\" \\ \u00e9\n", new byte[] {0, 1, 2, (byte) 0xFF});
            legacy.update("INSERT INTO " + table + " (payment_id, customer_id, amount, payment_date) VALUES (2, 7,"
                    + " 0.5, TIMESTAMP '2007-03-01 00:00:00')");
        }
        legacy.update("DELETE FROM gateway_outbox_position");
    }

    private Map<String, Object> mapping(String table, String markMode) {
        Map<String, Object> p = new HashMap<>();
        p.put("table", table);
        p.put("markMode", markMode);
        p.put("keyColumn", "payment_id");
        p.put("orderColumn", "payment_id");
        p.put("eventId", "payment-{key}");
        p.put("aggregateType", "Payment");
        p.put("aggregateIdColumn", "customer_id");
        p.put("eventType", "PaymentMade");
        p.put("payloadFormat", "COLUMNS");
        p.put("payloadColumn", COLUMNS);
        return p;
    }

    /** The golden data as one line of JSON, as the envelopes carry it. */
    private String expected() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/payload-from-columns/" + golden())) {
            return json.writeValueAsString(json.readTree(in));
        }
    }

    private String actual(String queue) throws IOException {
        return json.writeValueAsString(json.readTree(json.writeValueAsString(published(queue))));
    }

    private List<JsonNode> published(String queue) {
        return broker.drain(queue).stream().map(m -> {
            try {
                EventEnvelope e = codec.read(m.getText());
                return e.data();
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        }).toList();
    }

    @Test
    void aPollingRelayPublishesTheChosenColumnsAsTheData() throws Exception {
        String queue = unique("it.columns.poll");
        Map<String, Object> p = mapping("payment_poll", "TIMESTAMP");
        p.put("publishedAtColumn", "processed_at");
        OutboxRelay relay = relay(unique("columns-poll"), "queue:" + queue, p);

        assertThat(drain(relay)).isEqualTo(2);

        assertThat(actual(queue)).isEqualTo(expected());
        assertThat(legacy.queryForObject("SELECT COUNT(*) FROM payment_poll WHERE processed_at IS NULL",
                Integer.class)).isZero();
    }

    @Test
    void aZeroWriteRelayPublishesTheChosenColumnsAsTheData() throws Exception {
        String queue = unique("it.columns.zw");
        Map<String, Object> p = mapping("payment_zw", "ZERO_WRITE");
        p.putAll(zeroWriteParameters());
        OutboxRelay relay = relay(unique("columns-zw"), "queue:" + queue, p);
        AtomicInteger published = new AtomicInteger();

        Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> published.addAndGet(drain(relay)) >= 2);

        assertThat(actual(queue)).isEqualTo(expected());
    }

    @Test
    void everyColumnWithAStar() {
        String queue = unique("it.columns.star");
        Map<String, Object> p = mapping("payment_poll", "TIMESTAMP");
        p.put("publishedAtColumn", "processed_at");
        p.put("payloadColumn", "*");
        OutboxRelay relay = relay(unique("columns-star"), "queue:" + queue, p);

        assertThat(drain(relay)).isEqualTo(2);

        JsonNode first = published(queue).get(0);
        assertThat(first.has("processed_at")).isTrue();
        assertThat(first.get("customer_id").asInt()).isEqualTo(341);
    }

    /** What a ZERO_WRITE relay on this database needs besides the mapping (MariaDB: the insert-time column). */
    protected Map<String, Object> zeroWriteParameters() {
        return Map.of();
    }
}
