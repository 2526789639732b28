package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.ORDER;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.PUBLISHED_AT;
import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.STATUS;

import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.sql.Dialect;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The database's plan for an outbox store's claim, its ordering check and its mark, and whether the claim reads an
 * index that holds only waiting rows ({@code relay explain}). Nothing is executed and nothing is locked: the plans are
 * the dialect's {@code explain} statement (PostgreSQL, MariaDB and H2 {@code EXPLAIN}) over the rendered statements
 * with example binds: the cycle's time, the batch size, and the keys of the first waiting rows (a plain read). On
 * PostgreSQL, whose relay cycle runs generic plans, the statement is prepared and the plan shown is its generic plan
 * (the example binds only set how many keys its lists have).
 *
 * <p>An index holds only waiting rows when it is partial with the pending predicate (PostgreSQL: {@code WHERE status =
 * 'PENDING'}, or {@code WHERE published_at IS NULL} in TIMESTAMP mode); on databases without partial indexes, when it
 * leads with the status (or processed time) column, so that the waiting rows are one range of it. In DELETE mode the
 * table holds only waiting rows, and an index leading with the order column serves. The verdict reads the plan's text,
 * which each database words its own way: it is advice for an operator, not a guarantee.
 */
public final class OutboxExplain {

    /**
     * PostgreSQL: {@code Index Scan using ix on outbox [alias]}, {@code Seq Scan on outbox [alias]}, or
     * {@code Bitmap Heap Scan on outbox [alias]} over the {@code Bitmap Index Scan on ix} lines below it.
     */
    private static final Pattern POSTGRES_SCAN = Pattern.compile(
            "(?:Index Scan|Index Only Scan)(?: Backward)? using (\\S+) on (\\S+)(?: (\\S+))?"
                    + "|(Seq Scan|Bitmap Heap Scan) on (\\S+)(?: (\\S+))?");
    private static final Pattern POSTGRES_BITMAP = Pattern.compile("Bitmap Index Scan on (\\S+)");
    /** H2: {@code FROM "PUBLIC"."OUTBOX" /* PUBLIC.IX_NAME: ... *}{@code /} or {@code /* PUBLIC.OUTBOX.tableScan *}{@code /}. */
    private static final Pattern H2_SCAN = Pattern.compile("/\\*\\s*([^\\s:*]+)");

    /** The plan of one statement: the lines the database printed, with the binds used. */
    public record Plan(String statement, List<String> lines, String example) {
    }

    /**
     * @param claimIndex   the index the claim reads on the outbox table, {@code null} when it reads the table itself
     * @param waitingOnly  whether that index holds only waiting rows (see the class comment)
     * @param indexFacts   what the database says of that index (its definition or columns)
     * @param advice       the index to add when {@code waitingOnly} is false
     */
    public record Report(List<Plan> plans, String claimIndex, boolean waitingOnly, String indexFacts, String advice) {
    }

    private OutboxExplain() {
    }

    /** Whether {@code relay explain} can ask this database for plans. */
    public static boolean supports(Dialect dialect) {
        return dialect.has("explain");
    }

    public static Report explain(OutboxStore store, int batchSize, Instant now) {
        Dialect dialect = store.dialect();
        if (!supports(dialect)) {
            throw new IllegalArgumentException("relay explain is not offered on " + dialect.id()
                    + " (not tested by this project)");
        }
        JdbcTemplate jdbc = new JdbcTemplate(store.transactionDataSource());
        OutboxMapping mapping = store.mapping();
        OutboxStatements statements = store.statements();
        List<Plan> plans = new ArrayList<>();

        Map<Param, Object> claimValues = new EnumMap<>(Param.class);
        claimValues.put(Param.NOW, now);
        claimValues.put(Param.LIMIT, batchSize);
        Plan claim = plan(jdbc, dialect, statements.get("claim"), claimValues, "now " + now + ", limit " + batchSize);
        plans.add(claim);

        List<OutboxRow> examples = store.waiting(batchSize);
        if (examples.isEmpty()) {
            plans.add(new Plan("markPublished", List.of("(no waiting row to take example keys from: not planned)"),
                    ""));
        } else {
            List<Object> keys = examples.stream().map(OutboxRow::key).toList();
            Map<Param, Object> check = new EnumMap<>(Param.class);
            check.put(Param.AGGREGATES, examples.stream().map(OutboxRow::aggregateId).distinct().toList());
            check.put(Param.LAST_ORDER, ColumnKind.bindable(examples.get(examples.size() - 1).order(),
                    dialect.bindsUuidAsText()));
            check.put(Param.CLAIMED, keys);
            check.put(Param.LIMIT, AggregateOrder.readBound(keys.size()));
            plans.add(plan(jdbc, dialect, statements.get("waitingCountUpTo"), check,
                    "up to the last of the first " + examples.size() + " waiting rows"));
            plans.add(plan(jdbc, dialect, statements.get("waitingUpTo"), check,
                    "up to the last of the first " + examples.size() + " waiting rows"));
            plans.add(plan(jdbc, dialect, statements.get("firstWaitingNotHeld"), check,
                    "the first " + examples.size() + " waiting rows"));
            statements.find("firstFailedBefore").ifPresent(failed -> plans.add(plan(jdbc, dialect, failed, check,
                    "the aggregates of the first " + examples.size() + " waiting rows")));
            Map<Param, Object> mark = new EnumMap<>(Param.class);
            mark.put(Param.AT, now);
            mark.put(Param.PUBLISHER, "explain");
            mark.put(Param.KEYS, keys);
            plans.add(plan(jdbc, dialect, statements.get("markPublished"), mark,
                    "the keys of the first " + keys.size() + " waiting rows"));
        }

        String table = mapping.table().name().table();
        String index = claimIndex(dialect, claim.lines(), table);
        String facts = index == null ? "" : indexFacts(jdbc, dialect, mapping, index);
        boolean waitingOnly = index != null && holdsOnlyWaitingRows(dialect, mapping, facts);
        String advice = pendingIndexAdvice(dialect, mapping, "ix_" + table.toLowerCase(Locale.ROOT) + "_pending");
        return new Report(plans, index, waitingOnly, facts, advice);
    }

    /** The partial index on waiting rows that the claim could use, as DDL of this dialect, named {@code name}. */
    private static String pendingIndexAdvice(Dialect dialect, OutboxMapping mapping, String name) {
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("index", dialect.quote(name));
        parts.put("table", dialect.quote(mapping.table().name()));
        parts.put("order", dialect.quote(mapping.column(ORDER)));
        return switch (mapping.markMode()) {
            case STATUS -> {
                parts.put("status", dialect.quote(mapping.column(STATUS)));
                Object pending = mapping.statusBind(mapping.pendingValue());
                parts.put("pending", pending instanceof Long ? pending.toString()
                        : "'" + mapping.pendingValue().replace("'", "''") + "'");
                yield dialect.sql("advice.pendingIndex.status", parts);
            }
            case TIMESTAMP -> {
                parts.put("publishedAt", dialect.quote(mapping.column(PUBLISHED_AT)));
                yield dialect.sql("advice.pendingIndex.timestamp", parts);
            }
            case DELETE -> dialect.sql("advice.pendingIndex.delete", parts);
            case ZERO_WRITE -> throw new IllegalStateException();
        };
    }

    private static Plan plan(JdbcTemplate jdbc, Dialect dialect, OutboxStatements.Statement statement,
                             Map<Param, Object> values, String example) {
        String inOrder = OutboxStore.claimInOrder(dialect);
        if (inOrder == null) {
            return plan(jdbc, dialect.sql("explain", Map.of("statement", statement.sql(values))), statement.name(),
                    statement.values(values), example);
        }
        // planned as the relay's transaction plans it; the setting ends with this rolled-back transaction
        return new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource())).execute(status -> {
            status.setRollbackOnly();
            jdbc.execute(inOrder);
            return dialect.has("explain.prepare") ? genericPlan(jdbc, dialect, statement, values, example, status)
                    : plan(jdbc, dialect.sql("explain", Map.of("statement", statement.sql(values))), statement.name(),
                            statement.values(values), example);
        });
    }

    /**
     * The generic plan of {@code statement} (PostgreSQL): prepared, its execution explained with NULL for each bind (a
     * generic plan does not depend on their values, and EXECUTE takes no binds there), then dropped, also after a
     * failure.
     */
    private static Plan genericPlan(JdbcTemplate jdbc, Dialect dialect, OutboxStatements.Statement statement,
                                    Map<Param, Object> values, String example, TransactionStatus status) {
        String nulls = String.join(", ", Collections.nCopies(statement.values(values).length, "NULL"));
        jdbc.execute(dialect.sql("explain.prepare", Map.of("statement", numberedBinds(statement.sql(values)))));
        Object beforeExplain = status.createSavepoint();
        try {
            List<String> lines = new ArrayList<>(List.of("(generic plan, as the cycle plans it)"));
            lines.addAll(plan(jdbc, dialect.sql("explain.execute", Map.of("nulls", nulls)), statement.name(),
                    new Object[0], example).lines());
            return new Plan(statement.name(), lines, example);
        } catch (RuntimeException e) {
            status.rollbackToSavepoint(beforeExplain); // so that the prepared statement can be dropped
            throw e;
        } finally {
            jdbc.execute(dialect.sql("explain.deallocate", Map.of()));
        }
    }

    /**
     * {@code sql} with its {@code ?} binds written {@code $1, $2, ...}, outside quoted literals and identifiers: the
     * text of a PostgreSQL {@code PREPARE} (here and in tests that plan as the cycle does).
     */
    public static String numberedBinds(String sql) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        char quote = 0;
        int n = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0; // a doubled quote closes and opens again: same result
                }
                out.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                out.append(c);
            } else if (c == '?') {
                out.append('$').append(++n);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static Plan plan(JdbcTemplate jdbc, String sql, String name, Object[] binds, String example) {
        List<String> lines = jdbc.query(sql, rs -> {
            List<String> out = new ArrayList<>();
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                if (meta.getColumnCount() == 1) {
                    out.addAll(List.of(String.valueOf(rs.getString(1)).split("\n")));
                } else {
                    List<String> cells = new ArrayList<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        cells.add(meta.getColumnLabel(i) + "=" + rs.getString(i));
                    }
                    out.add(String.join(" ", cells));
                }
            }
            return out;
        }, binds);
        return new Plan(name, lines, example);
    }

    /** The index the claim's scan of the outbox table (not of a subquery's alias) reads, or null. */
    static String claimIndex(Dialect dialect, List<String> lines, String table) {
        String unquoted = table.toLowerCase(Locale.ROOT);
        switch (dialect) {
            case POSTGRESQL -> {
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = POSTGRES_SCAN.matcher(lines.get(i));
                    if (m.find()) {
                        boolean heap = m.group(4) != null;
                        String on = heap ? m.group(5) : m.group(2);
                        String alias = heap ? m.group(6) : m.group(3);
                        if (on.replace("\"", "").toLowerCase(Locale.ROOT).endsWith(unquoted)
                                && (alias == null || alias.startsWith("(")
                                    || alias.replace("\"", "").equalsIgnoreCase(table))) {
                            if (!heap) {
                                return m.group(1).replace("\"", "");
                            }
                            if (m.group(4).equals("Seq Scan")) {
                                return null;
                            }
                            for (int j = i + 1; j < lines.size(); j++) {
                                Matcher b = POSTGRES_BITMAP.matcher(lines.get(j));
                                if (b.find()) {
                                    return b.group(1).replace("\"", "");
                                }
                            }
                            return null;
                        }
                    }
                }
                return null;
            }
            case MARIADB -> {
                for (String line : lines) {
                    Map<String, String> cells = cells(line);
                    if (table.equalsIgnoreCase(cells.get("table"))) {
                        String key = cells.get("key");
                        return key == null || key.equals("null") ? null : key;
                    }
                }
                return null;
            }
            case H2 -> {
                Matcher m = H2_SCAN.matcher(String.join(" ", lines));
                if (!m.find()) {
                    return null;
                }
                String used = m.group(1).replace("\"", "");
                return used.endsWith(".tableScan") ? null : used.substring(used.lastIndexOf('.') + 1);
            }
            default -> {
                return null;
            }
        }
    }

    private static Map<String, String> cells(String line) {
        Map<String, String> cells = new LinkedHashMap<>();
        for (String cell : line.split(" ")) {
            int eq = cell.indexOf('=');
            if (eq > 0) {
                cells.put(cell.substring(0, eq), cell.substring(eq + 1));
            }
        }
        return cells;
    }

    /** The index's definition (PostgreSQL) or its columns in order, as {@code columns: a, b}. */
    private static String indexFacts(JdbcTemplate jdbc, Dialect dialect, OutboxMapping mapping, String index) {
        if (dialect.has("explain.indexDefinition")) {
            List<String> def = jdbc.queryForList(dialect.sql("explain.indexDefinition", Map.of()), String.class,
                    mapping.table().name().table(), index, mapping.table().name().schema());
            if (!def.isEmpty()) {
                return def.get(0);
            }
        }
        return jdbc.execute((Connection c) -> {
            DatabaseMetaData meta = c.getMetaData();
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = meta.getIndexInfo(c.getCatalog(), mapping.table().name().schema(),
                    mapping.table().name().table(), false, true)) {
                while (rs.next()) {
                    if (index.equalsIgnoreCase(rs.getString("INDEX_NAME")) && rs.getString("COLUMN_NAME") != null) {
                        columns.add(rs.getString("COLUMN_NAME"));
                    }
                }
            } catch (SQLException e) {
                return "columns unknown: " + e.getMessage();
            }
            return "columns: " + String.join(", ", columns);
        });
    }

    private static boolean holdsOnlyWaitingRows(Dialect dialect, OutboxMapping mapping, String facts) {
        String f = facts.toLowerCase(Locale.ROOT);
        int where = f.indexOf(" where ");
        String predicate = where < 0 ? null : f.substring(where);
        String leading = f.startsWith("columns: ") ? f.substring(9).split(",")[0].strip() : leadingColumn(f);
        return switch (mapping.markMode()) {
            case STATUS -> {
                String status = mapping.column(STATUS).toLowerCase(Locale.ROOT);
                String pending = mapping.pendingValue().toLowerCase(Locale.ROOT);
                yield predicate != null ? predicate.contains(status) && predicate.contains(pending)
                        : status.equals(leading);
            }
            case TIMESTAMP -> {
                String processed = mapping.column(PUBLISHED_AT).toLowerCase(Locale.ROOT);
                yield predicate != null ? predicate.contains(processed) && predicate.contains("is null")
                        : processed.equals(leading);
            }
            case DELETE -> predicate == null && mapping.column(ORDER).toLowerCase(Locale.ROOT).equals(leading);
            case ZERO_WRITE -> false;
        };
    }

    /** The first column of a PostgreSQL index definition ({@code CREATE INDEX ix ON t USING btree (seq) ...}). */
    private static String leadingColumn(String definition) {
        int open = definition.indexOf('(');
        if (open < 0) {
            return "";
        }
        String rest = definition.substring(open + 1);
        int end = rest.length();
        for (char c : new char[] {',', ')', ' '}) {
            int i = rest.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        return rest.substring(0, end).replace("\"", "").strip();
    }
}
