package io.legacygateway.adapters.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Statements render from the resource files with quoted identifiers only; values stay binds. */
class DialectTest {

    private static Map<String, String> claim(Dialect d) {
        return Map.of("columns", d.quote("seq") + ", " + d.quote("id"), "table", d.quote("outbox"),
                "claimable", d.sql("outbox.claimable.status", Map.of("status", d.quote("status"))),
                "order", d.quote("seq"));
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void everyDialectRendersTheClaimWithBindsOnly(Dialect d) {
        String sql = d.sql("outbox.claim", claim(d));
        assertThat(sql).contains(d.quote("outbox")).contains(d.quote("status") + " = ?").doesNotContain("{");
        assertThat(sql.chars().filter(c -> c == '?').count()).as("status and limit binds").isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void everyDialectRendersTheStatementsOfEveryMarkMode(Dialect d) {
        String keyText = d.sql("keyText", Map.of("column", d.quote("seq")));
        Map<String, String> f = Map.of("table", d.quote("outbox"), "key", d.quote("seq"), "order", d.quote("seq"),
                "aggregateId", d.quote("aggregate_id"), "aggregates", "?", "claimed", "?, ?",
                "rejections", d.quote("gateway_outbox_rejection"), "positions", d.quote("gateway_outbox_position"),
                "keyText", keyText);
        for (String pending : new String[] {
                d.sql("outbox.claimable.status", Map.of("status", d.quote("status"))),
                d.sql("outbox.claimable.unprocessed", Map.of("processedAt", d.quote("published_at"))),
                "NOT " + d.sql("rejection.exists.failed", f)}) {
            Map<String, String> g = new java.util.HashMap<>(f);
            g.put("pending", pending);
            g.put("claimable", pending);
            g.put("columns", d.quote("seq") + ", " + keyText + " AS gw_key_text");
            assertThat(d.sql("outbox.claim", g)).doesNotContain("{");
            assertThat(d.sql("outbox.firstWaitingNotHeld", g)).doesNotContain("{");
        }
        Map<String, String> g = new java.util.HashMap<>(f);
        g.put("keys", "?, ?");
        g.put("condition", d.sql("condition.equals", Map.of("column", d.quote("outbox") + "." + d.quote("status"))));
        g.put("columns", d.quote("seq"));
        g.put("assignments", d.sql("assign", Map.of("column", d.quote("status"))));
        g.put("outer", d.quote("outbox"));
        g.put("blocker", d.sql("condition.after", Map.of("column", "gw_b." + d.quote("next_retry_at"))));
        for (String name : new String[] {"outbox.delete", "rejection.upsert", "rejection.entries", "rejection.clear",
                "rejection.due", "rejection.failed", "rejection.reset", "rejection.countFailed", "rejection.exists.failed",
                "rejection.exists.notDue", "outbox.select.first", "outbox.select.byKeyText", "outbox.count",
                "outbox.markIf", "outbox.blockedBy", "retention.delete", "position.insert", "position.source",
                "position.lock", "position.read", "position.update"}) {
            assertThat(d.sql(name, g)).as(name).doesNotContain("{").contains("?");
        }
        assertThat(d.sql("rejection.upsert", f).chars().filter(c -> c == '?').count()).isEqualTo(9);
    }

    @Test
    void zeroWriteHasAMethodWhereTheDatabaseOffersOne() {
        assertThat(Dialect.values()).filteredOn(d -> d.commitHorizon() != Dialect.CommitHorizon.NONE)
                .containsExactly(Dialect.POSTGRESQL, Dialect.MARIADB);
        assertThat(Dialect.POSTGRESQL.sql("zerowrite.horizon", Map.of())).contains("pg_snapshot_xmin");
        assertThat(Dialect.MARIADB.sql("zerowrite.horizon", Map.of("call", "t-1"))).contains("INNODB_TRX")
                .contains("PROCESSLIST").startsWith("/* gateway commit horizon t-1 */");
        assertThat(Dialect.MARIADB.sql("zerowrite.visibility", Map.of("createdAt", "t.`created_at`")))
                .isEqualTo("t.`created_at`");
    }

    @Test
    void quotingFollowsTheDatabase() {
        assertThat(Dialect.POSTGRESQL.quote("outbox")).isEqualTo("\"outbox\"");
        assertThat(Dialect.MARIADB.quote("outbox")).isEqualTo("`outbox`");
        assertThat(Dialect.SQLSERVER.quote(new TableName("dbo", "outbox"))).isEqualTo("[dbo].[outbox]");
    }

    @Test
    void unsafeIdentifiersAreRefusedBeforeTheyReachSql() {
        assertThatThrownBy(() -> Dialect.POSTGRESQL.quote("x\"; DROP TABLE y; --"))
                .hasMessageContaining("is not a safe SQL identifier");
        assertThatThrownBy(() -> TableName.parse("table", "a.b.c")).hasMessageContaining("table: 'b.c'");
        assertThat(TableName.parse("table", "sales.outbox")).isEqualTo(new TableName("sales", "outbox"));
    }

    @Test
    void aMissingPlaceholderValueIsAProgrammingErrorNotSilentSql() {
        assertThatThrownBy(() -> Dialect.H2.sql("outbox.mark", Map.of("table", "\"t\"")))
                .hasMessageContaining("needs {");
    }

    @Test
    void onlyTheDatabasesTestedHereClaimToBe() {
        assertThat(Dialect.values()).filteredOn(Dialect::testedHere)
                .containsExactly(Dialect.POSTGRESQL, Dialect.MARIADB, Dialect.H2);
    }

    @Test
    void aStatementRefusedForTheDataOfItsRowsIsToldFromAnOutage() {
        SQLException trigger = new SQLException("ERROR: order 7 may not be marked", "P0001");
        BatchUpdateException batch = new BatchUpdateException("Batch entry 0 was aborted", "P0001", new int[0]);
        batch.setNextException(trigger);
        RuntimeException wrapped = new RuntimeException("UPDATE outbox ...", batch);
        assertThat((Throwable) Dialect.POSTGRESQL.refusedRows(wrapped)).as("the batch entry's own exception")
                .isSameAs(trigger);
        assertThat((Throwable) Dialect.MARIADB.refusedRows(wrapped)).as("P0 is PL/pgSQL's class only").isNull();
        for (String state : new String[] {"22001", "23514", "23000", "45000", "09000", "27000", "44000"}) {
            assertThat((Throwable) Dialect.MARIADB.refusedRows(new RuntimeException(new SQLException("x", state))))
                    .as(state).isNotNull();
        }
        for (String state : new String[] {"08006", "40001", "40P01", "42501", "57P01", "53300", "HY000"}) {
            assertThat((Throwable) Dialect.POSTGRESQL.refusedRows(new RuntimeException(new SQLException("x", state))))
                    .as(state + " is an outage").isNull();
        }
        assertThat((Throwable) Dialect.POSTGRESQL.refusedRows(new IllegalStateException("no SQL at all"))).isNull();
    }
}
