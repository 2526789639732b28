package io.legacygateway.adapters.outbox.attempts;

import static io.legacygateway.adapters.outbox.attempts.AttemptLogContractTest.row;
import static io.legacygateway.adapters.outbox.attempts.AttemptLogContractTest.sent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.adapters.outbox.attempts.AttemptLog.Entry;
import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.testsupport.ContractDatabase;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * PostgreSQL's packed attempt log: a cycle's attempts are one row of {@value AttemptLog#PACKS}, and only an attempt
 * with an answer or mark of its own gets a row of {@value AttemptLog#TABLE}; the attempts an earlier version wrote one
 * row each read with the packs, in the order they were made; a log whose packs table was never created writes one row
 * per attempt; the lookup by row key reads the packs' index on their row keys; a user who may not write the packs is
 * refused when the log is built, naming the grants.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresAttemptLogPacksACycleInOneRowTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    private TestSchema schema;

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(ContractDatabase.POSTGRESQL, getClass(), GatewaySchema.RELAY);
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    @BeforeEach
    void empty() {
        for (String table : List.of(AttemptLog.TABLE, AttemptLog.CYCLES, AttemptLog.PACKS)) {
            schema.jdbc().update("DELETE FROM " + table);
        }
    }

    private AttemptLog log() {
        return new AttemptLog(schema.dataSource(), new DataSourceTransactionManager(schema.dataSource()),
                schema.dialect(), "r1", "r1@host:1", "stateDataSource", schema.dataSource());
    }

    private int count(String sql) {
        return schema.jdbc().queryForObject(sql, Integer.class);
    }

    @Test
    void aCycleOfAHundredAttemptsIsOneRowAndOnlyAttemptsWithAnAnswerOfTheirOwnGetARow() {
        AttemptLog log = log();
        assertThat(log.packed()).isTrue();
        List<Attempt> attempts = new ArrayList<>(LongStream.rangeClosed(1, 99).mapToObj(k -> sent(k)).toList());
        attempts.add(new Attempt(row(100), Observation.NOT_SENT, "not JSON"));
        log.attempted("c1", attempts, T0);
        assertThat(count("SELECT count(*) FROM " + AttemptLog.PACKS)).isOne();
        assertThat(count("SELECT cardinality(row_keys) FROM " + AttemptLog.PACKS)).isEqualTo(100);
        assertThat(count("SELECT count(*) FROM " + AttemptLog.TABLE)).isZero();

        log.finished("c1", new BrokerAnswer(Map.of("2", new Attempt(row(2), Observation.REFUSED, "too large"),
                "3", new Attempt(row(3), Observation.DEFERRED, "after 2")), Observation.CONFIRMED, null), true,
                List.of("2", "100"));

        assertThat(count("SELECT count(*) FROM " + AttemptLog.TABLE + " WHERE packed"))
                .as("refused and parked, deferred, parked after not sent").isEqualTo(3);
        assertThat(log.attempts(List.of("1", "2", "3", "100")).values()).flatExtracting(l -> l)
                .extracting(Entry::rowKey, Entry::eventId, Entry::observation, Entry::markState, Entry::detail)
                .containsExactly(tuple("1", "event-1", Observation.CONFIRMED, MarkState.PUBLISHED, null),
                        tuple("2", "event-2", Observation.REFUSED, MarkState.FAILED, "too large"),
                        tuple("3", "event-3", Observation.DEFERRED, MarkState.UNCHANGED, "after 2"),
                        tuple("100", "event-100", Observation.NOT_SENT, MarkState.FAILED, "not JSON"));
        assertThat(log.published(T0, 200)).hasSize(97).doesNotContain("2", "3", "100");
    }

    @Test
    void attemptsAnEarlierVersionWroteOneRowEachReadWithThePacksInTheOrderTheyWereMade() {
        AttemptLog earlier;
        schema.jdbc().execute("ALTER TABLE " + AttemptLog.PACKS + " RENAME TO gateway_outbox_attempt_pack_away");
        try {
            earlier = log(); // as before relay-state.sql created the packs table
            assertThat(earlier.packed()).as("without the packs table: one row per attempt").isFalse();
            earlier.attempted("c1", List.of(sent(1), sent(2)), T0);
            earlier.finished("c1", new BrokerAnswer(Map.of(), Observation.FAILED, "broker down"), true, List.of());
        } finally {
            schema.jdbc().execute("ALTER TABLE gateway_outbox_attempt_pack_away RENAME TO " + AttemptLog.PACKS);
        }
        assertThat(count("SELECT count(*) FROM " + AttemptLog.TABLE + " WHERE NOT packed")).isEqualTo(2);

        AttemptLog upgraded = log();
        assertThat(upgraded.packed()).isTrue();
        upgraded.attempted("c2", List.of(sent(1), sent(2)), T0.plusSeconds(10));
        upgraded.finished("c2", new BrokerAnswer(Map.of(), Observation.CONFIRMED, null), true, List.of());
        upgraded.attempted("c3", List.of(sent(1)), T0.plusSeconds(20));

        assertThat(upgraded.attempts(List.of("1")).get("1"))
                .extracting(Entry::cycle, Entry::observation, Entry::markState)
                .containsExactly(tuple("c1", Observation.FAILED, MarkState.UNCHANGED),
                        tuple("c2", Observation.CONFIRMED, MarkState.PUBLISHED),
                        tuple("c3", Observation.SENT, MarkState.NONE));
        assertThat(upgraded.repeated(T0, 10)).as("row 1 confirmed once, then sent without an answer")
                .containsExactly("1");
        assertThat(upgraded.published(T0, 10)).containsExactlyInAnyOrder("1", "2");
    }

    @Test
    void theLookupOfARowKeyAmongTwoThousandCyclesReadsThePacksIndexOnTheirRowKeys() {
        AttemptLog log = log();
        for (int cycle = 0; cycle < 2_000; cycle++) { // one pack per cycle, as the relay writes them
            List<Attempt> attempts = LongStream.range(cycle * 10L, cycle * 10L + 10).mapToObj(k -> sent(k)).toList();
            log.attempted("c" + cycle, attempts, T0.plusSeconds(cycle));
        }
        schema.jdbc().execute("ANALYZE " + AttemptLog.PACKS);
        AttemptTables tables = new AttemptTables(schema.dialect(), "\"" + AttemptLog.TABLE + "\"",
                "\"" + AttemptLog.CYCLES + "\"", "\"" + AttemptLog.PACKS + "\"", ColumnKind.TIMESTAMP_TZ);
        String plan = String.join("\n", schema.jdbc().queryForList("EXPLAIN " + tables.sql("attempt.packed.byRows")
                .replaceFirst("\\?", "'r1'").replaceFirst("\\?", "'{12345}'"), String.class));

        assertThat(plan).as(plan).contains("gateway_outbox_attempt_pack_rows");
        assertThat(log.attempts(List.of("12345")).get("12345")).extracting(Entry::eventId, Entry::cycle)
                .containsExactly(tuple("event-12345", "c1234"));
    }

    @Test
    void aUserWhoMayNotWriteThePacksIsRefusedAtStartNamingTheGrants() {
        String role = "gw_attempt_" + UUID.randomUUID().toString().substring(0, 8);
        String url = ((HikariDataSource) schema.dataSource()).getJdbcUrl();
        schema.jdbc().execute("CREATE ROLE " + role + " LOGIN");
        try {
            schema.jdbc().execute("GRANT USAGE ON SCHEMA " + schema.name() + " TO " + role);
            schema.jdbc().execute("GRANT SELECT, INSERT, UPDATE, DELETE ON " + AttemptLog.TABLE + ", "
                    + AttemptLog.CYCLES + " TO " + role); // the grants of an earlier version
            DriverManagerDataSource asRole = new DriverManagerDataSource(url, role, "");
            assertThatThrownBy(() -> new AttemptLog(asRole,
                            new DataSourceTransactionManager(asRole), schema.dialect(), "r1", "r1@host:1",
                            "stateDataSource", asRole))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("stateDataSource")
                    .hasMessageContaining("GRANT SELECT, INSERT, DELETE ON " + AttemptLog.PACKS)
                    .hasMessageContaining("GRANT USAGE ON SEQUENCE " + AttemptLog.TABLE + "_id_seq");

            schema.jdbc().execute("GRANT SELECT, INSERT, DELETE ON " + AttemptLog.PACKS + " TO " + role);
            schema.jdbc().execute("GRANT USAGE ON SEQUENCE " + AttemptLog.TABLE + "_id_seq TO " + role);
            AttemptLog granted = new AttemptLog(asRole, new DataSourceTransactionManager(asRole), schema.dialect(),
                    "r1", "r1@host:1", "stateDataSource", asRole);
            granted.attempted("c1", List.of(sent(1)), T0);
            assertThat(granted.attempts(List.of("1")).get("1")).extracting(Entry::eventId).containsExactly("event-1");
        } finally {
            schema.jdbc().execute("DROP OWNED BY " + role);
            schema.jdbc().execute("DROP ROLE " + role);
        }
    }
}
