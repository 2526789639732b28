package io.legacygateway.testsupport;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** Writes and reads the default outbox table as the legacy application and an operator would, with plain SQL. */
public final class OutboxRows {

    private final JdbcTemplate jdbc;

    public OutboxRows(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    public void clear() {
        jdbc.update("DELETE FROM outbox");
    }

    /** Inserts a PENDING row and returns its event id. */
    public String insert(String aggregateId, String eventType, String payload) {
        String id = UUID.randomUUID().toString();
        jdbc.update("INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, event_version, payload, "
                + "occurred_at, correlation_id) VALUES (?, 'Order', ?, ?, 1, ?, ?, ?)", id, aggregateId, eventType,
                payload, Timestamp.from(Instant.now()), "corr-" + aggregateId);
        return id;
    }

    /** Inserts {@code count} rows for one aggregate with payload {@code {"seq": n}}; returns their event ids in order. */
    public List<String> insertSequence(String aggregateId, int count) {
        return java.util.stream.IntStream.range(0, count)
                .mapToObj(i -> insert(aggregateId, "OrderChanged", "{\"aggregate\":\"" + aggregateId + "\",\"seq\":" + i + "}"))
                .toList();
    }

    public String status(String eventId) {
        return jdbc.queryForObject("SELECT status FROM outbox WHERE id = ?", String.class, eventId);
    }

    public Map<String, Object> row(String eventId) {
        return jdbc.queryForMap("SELECT * FROM outbox WHERE id = ?", eventId);
    }

    public int count(String status) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM outbox WHERE status = ?", Integer.class, status);
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }
}
