package io.legacygateway.adapters.outbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Pins the SQL every outbox store runs: for each dialect, mark mode (STATUS, TIMESTAMP, DELETE) and mapping (the
 * default DDL's columns; a legacy table with other column names and no retry columns; in STATUS mode also the default
 * columns with failedRowPolicy BLOCK_AGGREGATE, file {@code block-aggregate-status.sql}, which holds only the
 * statements that differ from {@code default-status.sql} or that it lacks), the statements as
 * {@link OutboxStore#statements()} renders them when the store is built (then the {@link RejectionLog}'s), with the
 * meaning of each bind, compared with
 * {@code src/test/resources/golden/sql/<dialect>/<mapping>-<mode>.sql}. Rendering needs no database: the tables are
 * described as the JDBC metadata would report them.
 *
 * <p>A change to a dialect file or to the store's statements shows here as a diff to review. To accept it, rewrite the
 * files and review them with {@code git diff}:
 * {@code mvn -pl legacy-adapters test -Dtest=GoldenSqlTest -Dgolden.update=true}.
 */
class GoldenSqlTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/sql");
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final List<Dialect> DIALECTS = List.of(Dialect.POSTGRESQL, Dialect.MARIADB, Dialect.H2,
            Dialect.ORACLE, Dialect.SQLSERVER);
    private static final List<MarkMode> MODES = List.of(MarkMode.STATUS, MarkMode.TIMESTAMP, MarkMode.DELETE);

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Dialect d : DIALECTS) {
            for (MarkMode m : MODES) {
                all.add(Arguments.of(d, m, "default"));
                all.add(Arguments.of(d, m, "legacy"));
            }
            all.add(Arguments.of(d, MarkMode.STATUS, "block-aggregate"));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void renderedStatementsMatchTheGoldenFile(Dialect dialect, MarkMode mode, String mapping) throws IOException {
        String rendered = render(dialect, mode, mapping);
        Path file = GOLDEN.resolve(dialect.id()).resolve(fileName(mapping, mode));
        if (UPDATE) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
        }
        assertThat(file).as("golden file (rewrite with -Dgolden.update=true)").exists();
        assertThat(rendered).as("statements of %s (rewrite with -Dgolden.update=true and review the diff)", file)
                .isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }

    private static String render(Dialect dialect, MarkMode mode, String mapping) {
        DataSource none = new DriverManagerDataSource("jdbc:h2:mem:never-connected");
        boolean legacy = mapping.equals("legacy");
        boolean blockAggregate = mapping.equals("block-aggregate");
        TableInspector.Table table = legacy ? legacyTable(mode) : defaultTable();
        Map<String, String> configured = new LinkedHashMap<>();
        if (legacy) {
            configured.put("keyColumn", "evt_no");
            configured.put("orderColumn", "evt_no");
            configured.put("eventId", "billing-{key}");
            configured.put("aggregateType", "Invoice");
            configured.put("aggregateIdColumn", "ref_no");
            configured.put("eventTypeColumn", "evt_kind");
            configured.put("payloadColumn", "body");
            configured.put("createdAtColumn", "created");
            if (mode == MarkMode.STATUS) {
                configured.put("statusColumn", "state");
            }
            if (mode != MarkMode.DELETE) {
                configured.put("publishedAtColumn", "done_at");
                configured.put("lastErrorColumn", "err_text");
            }
        } else if (mode == MarkMode.TIMESTAMP || mode == MarkMode.DELETE) {
            configured.put("statusColumn", "none");
            if (mode == MarkMode.DELETE) {
                for (String c : List.of("publishedAtColumn", "retryCountColumn", "nextRetryAtColumn",
                        "lastErrorColumn", "lockedByColumn")) {
                    configured.put(c, "none");
                }
            }
        }
        OutboxMapping m = OutboxMapping.resolve(table, new OutboxMapping.Settings(mode, configured,
                legacy ? "N" : "PENDING", legacy ? "D" : "PUBLISHED", legacy ? "F" : "FAILED", PayloadFormat.JSON,
                ZoneOffset.UTC), p -> "parameter '" + p + "'");
        RejectionLog log = RejectionLog.of(none, dialect, "golden", "legacy/" + table.name().table(), rejectionTable());
        OutboxStore store = new OutboxStore(none, dialect, m, log, true, blockAggregate);
        String header = "-- " + dialect.id() + ", markMode " + mode + ", " + mapping
                + " mapping (rendered by GoldenSqlTest)\n\n";
        if (blockAggregate) {
            return header + "-- only what differs from " + fileName("default", mode) + "\n\n"
                    + differences(store.statements(), new OutboxStore(none, dialect, m, log, true, false).statements());
        }
        return header + store.statements().describe() + log.statements().describe();
    }

    /** The golden file of a mapping and mode, e.g. {@code default-status.sql}. */
    private static String fileName(String mapping, MarkMode mode) {
        return mapping + "-" + mode.name().toLowerCase(Locale.ROOT) + ".sql";
    }

    /** The statements of {@code these} that differ (text or binds) from those of the same name in {@code those}. */
    private static String differences(OutboxStatements these, OutboxStatements those) {
        StringBuilder out = new StringBuilder();
        for (OutboxStatements.Statement s : these.all()) {
            String described = s.describe();
            if (!those.find(s.name()).map(OutboxStatements.Statement::describe).orElse("").equals(described)) {
                out.append(described).append('\n');
            }
        }
        return out.toString();
    }

    private static TableInspector.Column text(String name, int size) {
        return new TableInspector.Column(name, Types.VARCHAR, "varchar", true, null, size, 0);
    }

    private static TableInspector.Column time(String name) {
        return new TableInspector.Column(name, Types.TIMESTAMP_WITH_TIMEZONE, "timestamptz", true, null, 35, 6);
    }

    private static TableInspector.Column number(String name, int jdbcType) {
        return new TableInspector.Column(name, jdbcType, jdbcType == Types.BIGINT ? "int8" : "int4", false, null,
                jdbcType == Types.BIGINT ? 19 : 10, 0);
    }

    private static TableInspector.Table table(String name, List<TableInspector.Column> columns, String key) {
        Map<String, TableInspector.Column> byName = new LinkedHashMap<>();
        columns.forEach(c -> byName.put(c.name(), c));
        return new TableInspector.Table(new TableName(null, name), byName, List.of(key));
    }

    /** The columns of ddl/&lt;db&gt;/outbox.sql. */
    private static TableInspector.Table defaultTable() {
        return table("outbox", List.of(number("seq", Types.BIGINT), text("id", 64), text("aggregate_type", 255),
                text("aggregate_id", 255), text("event_type", 255), number("event_version", Types.INTEGER),
                new TableInspector.Column("payload", Types.VARCHAR, "text", false, null, 0, 0), text("status", 16),
                number("retry_count", Types.INTEGER), time("created_at"), time("published_at"),
                new TableInspector.Column("last_error", Types.VARCHAR, "text", true, null, 0, 0),
                text("correlation_id", 255), text("causation_id", 255), text("trace_id", 64), time("next_retry_at"),
                text("locked_by", 255), time("locked_until"), time("occurred_at")), "seq");
    }

    /** A legacy event table of its own shape: other names, no event id, no retry columns. */
    private static TableInspector.Table legacyTable(MarkMode mode) {
        List<TableInspector.Column> columns = new ArrayList<>(List.of(number("evt_no", Types.BIGINT),
                text("ref_no", 40), text("evt_kind", 60), text("body", 4000), time("created")));
        if (mode == MarkMode.STATUS) {
            columns.add(new TableInspector.Column("state", Types.CHAR, "bpchar", false, null, 1, 0));
        }
        if (mode != MarkMode.DELETE) {
            columns.add(time("done_at"));
            columns.add(text("err_text", 500));
        }
        return table("evt_queue", columns, "evt_no");
    }

    /** The columns of ddl/&lt;db&gt;/relay-state.sql's rejection log. */
    private static TableInspector.Table rejectionTable() {
        return table(RejectionLog.TABLE, List.of(text("source_table", 300), text("row_key", 255), text("relay", 64),
                text("event_id", 255), text("reason", 2000), time("rejected_at"), number("attempts", Types.INTEGER),
                text("state", 16), time("next_retry_at")), "source_table");
    }
}
