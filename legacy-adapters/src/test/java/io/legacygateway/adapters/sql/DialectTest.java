package io.legacygateway.adapters.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
