package io.legacygateway.testsupport;

import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
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

    /** Rows charged a failed attempt: a retry count, a next retry or an error recorded on the row. */
    public int charged() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM outbox WHERE retry_count > 0 OR next_retry_at IS NOT NULL"
                + " OR last_error IS NOT NULL", Integer.class);
    }

    /**
     * The relay attempts on record for this event id (of any relay), as the tables hold them: rows of
     * {@code gateway_outbox_attempt} (one per attempt; not the overrides of packed attempts) and elements of
     * {@code gateway_outbox_attempt_pack} where the database has it.
     */
    public int attemptsOfEvent(String eventId) {
        return attemptCount("event_id", eventId);
    }

    /** As {@link #attemptsOfEvent}, for every attempt of one relay. */
    public int attemptsOfRelay(String relay) {
        return attemptCount("relay", relay);
    }

    private int attemptCount(String column, String value) {
        if (!packs()) {
            return jdbc.queryForObject("SELECT COUNT(*) FROM gateway_outbox_attempt WHERE " + column + " = ?",
                    Integer.class, value);
        }
        String element = column.equals("relay") ? "p.relay" : "e.event_id";
        return jdbc.queryForObject("SELECT (SELECT COUNT(*) FROM gateway_outbox_attempt WHERE " + column + " = ?"
                + " AND NOT packed) + (SELECT COUNT(*) FROM gateway_outbox_attempt_pack p CROSS JOIN LATERAL"
                + " unnest(p.event_ids) AS e(event_id) WHERE " + element + " = ?)", Integer.class, value, value);
    }

    /**
     * Each attempt at this event id as observation/mark state, oldest first, read from the tables (what a process
     * killed now leaves): its own values where it has them, else its cycle's finish row's, else SENT/NONE.
     */
    public List<String> attemptStates(String eventId) {
        String stored = packs()
                ? "SELECT a.id, 0 AS pos, a.cycle_id, a.event_id, a.observation, a.mark_state FROM gateway_outbox_attempt a"
                        + " WHERE NOT a.packed UNION ALL SELECT p.id, u.pos, p.cycle_id, u.event_id,"
                        + " COALESCE(o.observation, u.observation), COALESCE(o.mark_state, 'NONE')"
                        + " FROM gateway_outbox_attempt_pack p CROSS JOIN LATERAL unnest(p.row_keys, p.event_ids,"
                        + " p.observations) WITH ORDINALITY AS u(row_key, event_id, observation, pos)"
                        + " LEFT JOIN gateway_outbox_attempt o ON o.packed AND o.relay = p.relay"
                        + " AND o.cycle_id = p.cycle_id AND o.row_key = u.row_key"
                : "SELECT a.id, 0 AS pos, a.cycle_id, a.event_id, a.observation, a.mark_state FROM gateway_outbox_attempt a";
        return jdbc.queryForList("SELECT CASE WHEN a.observation = 'SENT' AND c.cycle_id IS NOT NULL"
                + " THEN c.observation ELSE a.observation END, CASE WHEN a.mark_state <> 'NONE' THEN a.mark_state"
                + " WHEN c.cycle_id IS NULL THEN 'NONE' ELSE c.mark_state END FROM (" + stored + ") a LEFT JOIN"
                + " gateway_outbox_cycle c ON c.cycle_id = a.cycle_id WHERE a.event_id = ? ORDER BY a.id, a.pos",
                        eventId)
                .stream()
                .map(r -> String.valueOf(r.values().toArray()[0]).strip() + "/"
                        + String.valueOf(r.values().toArray()[1]).strip()).toList();
    }

    /** Whether this database's attempt log packs a cycle's attempts in one row (PostgreSQL's relay-state.sql). */
    private boolean packs() {
        return jdbc.execute((ConnectionCallback<Boolean>) c -> {
            try (ResultSet rs = c.getMetaData().getTables(null, c.getSchema(), "gateway_outbox_attempt_pack", null)) {
                return rs.next();
            }
        });
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }
}
