package io.legacygateway.inbox;

import io.legacygateway.envelope.EventEnvelope;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.SqlParameter;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;

/**
 * An effect given as one SQL statement with named parameters taken from the envelope ({@link EnvelopeValues}). Values
 * are always binds; the statement text itself comes from the route's configuration. {@link #applyAll} runs it for
 * several events as one JDBC batch (one prepared statement, one round trip), in their order.
 */
final class SqlEffect implements InboxEffect {

    private final String sql;
    private final List<String> names;
    private final boolean requireRows;
    private final String consumer;
    private final NamedParameterJdbcTemplate jdbc;

    /**
     * @param property names the parameter in errors
     * @throws IllegalArgumentException naming the parameter when the statement uses a name {@link EnvelopeValues}
     *                                  does not know
     */
    SqlEffect(String property, String sql, boolean requireRows, String consumer, DataSource dataSource) {
        this.sql = sql;
        this.requireRows = requireRows;
        this.consumer = consumer;
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
        this.names = NamedParameterUtils.buildSqlParameterList(NamedParameterUtils.parseSqlStatement(sql),
                new MapSqlParameterSource()).stream().map(SqlParameter::getName).distinct().toList();
        for (String name : names) {
            if (!EnvelopeValues.known(name)) {
                throw new IllegalArgumentException(property + ": unknown named parameter :" + name + " (known: "
                        + EnvelopeValues.ATTRIBUTES.stream().sorted().map(n -> ":" + n).toList()
                        + " and :data.<path>)");
            }
        }
    }

    @Override
    public void apply(EventEnvelope envelope) {
        MapSqlParameterSource values = values(envelope);
        int rows = jdbc.update(sql, values);
        if (rows == 0 && requireRows) {
            throw noRow(envelope, values);
        }
    }

    /**
     * A failure of {@link #applyAll}: {@code index} is the event it belongs to, or {@code -1} when the JDBC batch failed
     * (the drivers do not reliably say which statement: PostgreSQL's marks every entry failed), or when the row counts needed
     * by {@code requireRows} are unknown; the caller's transaction must then be rolled back and the events applied one
     * by one.
     */
    static final class BatchFailure extends RuntimeException {
        private final int index;

        BatchFailure(int index, RuntimeException cause) {
            super(cause.getMessage(), cause);
            this.index = index;
        }

        int index() {
            return index;
        }

        RuntimeException failure() {
            return (RuntimeException) getCause();
        }
    }

    /**
     * The effect of each event, in their order, in the caller's transaction, with the same statement and checks as
     * {@link #apply}: the first event's alone, so that its failure is known to be its own (a message that keeps failing
     * heads its batches), the others as one JDBC batch (one round trip).
     *
     * @throws BatchFailure wrapping the failure, with the event's position where it is known
     */
    void applyAll(List<EventEnvelope> envelopes) {
        MapSqlParameterSource[] values = new MapSqlParameterSource[envelopes.size()];
        for (int i = 0; i < values.length; i++) {
            try {
                values[i] = values(envelopes.get(i));
            } catch (RuntimeException e) {
                throw new BatchFailure(i, e);
            }
        }
        int[] rows = new int[values.length];
        try {
            rows[0] = jdbc.update(sql, values[0]);
        } catch (RuntimeException e) {
            throw new BatchFailure(0, e);
        }
        if (values.length > 1) {
            int[] rest;
            try {
                rest = jdbc.batchUpdate(sql, Arrays.copyOfRange(values, 1, values.length));
            } catch (RuntimeException e) {
                throw new BatchFailure(-1, e);
            }
            if (rest.length != values.length - 1) {
                rest = Arrays.copyOf(rest, values.length - 1);
                Arrays.fill(rest, Statement.SUCCESS_NO_INFO);
            }
            System.arraycopy(rest, 0, rows, 1, rest.length);
        }
        if (!requireRows) {
            return;
        }
        for (int i = 0; i < values.length; i++) {
            if (rows[i] == Statement.SUCCESS_NO_INFO) {
                throw new BatchFailure(-1, new IllegalStateException("the driver gave no row count for a batch of "
                        + values.length + " (requireRows)"));
            }
            if (rows[i] == 0) {
                throw new BatchFailure(i, noRow(envelopes.get(i), values[i]));
            }
        }
    }

    private MapSqlParameterSource values(EventEnvelope envelope) {
        MapSqlParameterSource values = new MapSqlParameterSource();
        for (String name : names) {
            values.addValue(name, EnvelopeValues.value(envelope, consumer, name));
        }
        return values;
    }

    private BusinessRuleViolationException noRow(EventEnvelope envelope, MapSqlParameterSource values) {
        return new BusinessRuleViolationException("the effect of " + envelope.type() + " changed no row "
                + "(requireRows): " + describe(values));
    }

    private String describe(MapSqlParameterSource values) {
        StringBuilder s = new StringBuilder();
        for (String name : names) {
            s.append(s.isEmpty() ? "" : ", ").append(':').append(name).append('=').append(values.getValue(name));
        }
        return s.toString();
    }
}
