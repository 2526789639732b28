package io.legacygateway.adapters.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.inbox.InboxStore;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The inbox's statements: named binds only, a quoted table, and insert-first semantics in every tested dialect. */
class InboxStatementsTest {

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void theTestedDialectsRecordWithNamedBindsAndNoCheckFirst(Dialect d) {
        String sql = d.sql("inbox.record", Map.of("table", d.quote("inbox")));
        assertThat(sql).startsWith("INSERT").contains(d.quote("inbox")).contains(":messageId").contains(":consumer")
                .contains(":processedAt").doesNotContain("?").doesNotContain("{");
        assertThat(InboxStore.supports(d)).isTrue();
        for (String name : new String[] {"inbox.sequence.create", "inbox.sequence.lock", "inbox.sequence.advance",
                "inbox.parked.find", "inbox.parked.insert", "inbox.parked.delete"}) {
            assertThat(d.sql(name, Map.of("table", d.quote("t")))).as(name).doesNotContain("?").doesNotContain("{");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"ORACLE", "SQLSERVER"})
    void untestedDialectsHaveNoInboxAndSaySo(Dialect d) {
        assertThat(InboxStore.supports(d)).isFalse();
        assertThatThrownBy(() -> new InboxStore(null, d, new TableName(null, "inbox"), null, null))
                .hasMessageContaining("the inbox has no statements for " + d.id());
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void theInboxDdlExistsForEveryTestedDialect(Dialect d) {
        assertThat(InboxStatementsTest.class.getResource(d.ddlResource("inbox.sql"))).isNotNull();
    }
}
