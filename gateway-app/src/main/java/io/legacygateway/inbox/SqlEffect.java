package io.legacygateway.inbox;

import io.legacygateway.envelope.EventEnvelope;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.SqlParameter;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;

/**
 * An effect given as one SQL statement with named parameters taken from the envelope ({@link EnvelopeValues}). Values
 * are always binds; the statement text itself comes from the route's configuration.
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
        MapSqlParameterSource values = new MapSqlParameterSource();
        for (String name : names) {
            values.addValue(name, EnvelopeValues.value(envelope, consumer, name));
        }
        int rows = jdbc.update(sql, values);
        if (rows == 0 && requireRows) {
            throw new BusinessRuleViolationException("the effect of " + envelope.type() + " changed no row "
                    + "(requireRows): " + describe(values));
        }
    }

    private String describe(MapSqlParameterSource values) {
        StringBuilder s = new StringBuilder();
        for (String name : names) {
            s.append(s.isEmpty() ? "" : ", ").append(':').append(name).append('=').append(values.getValue(name));
        }
        return s.toString();
    }
}
