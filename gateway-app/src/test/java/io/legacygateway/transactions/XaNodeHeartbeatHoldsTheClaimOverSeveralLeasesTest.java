package io.legacygateway.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.testsupport.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Failure window: the XA node id's lease ({@link XaNodeClaim}) lapses while its holder runs, because the heartbeat ran
 * once, or stopped, and a second gateway with the same node id is then let in: their recoveries roll back each other's
 * prepared transactions. A periodic thing, tested over several periods: with a lease of {@value #LEASE_MS} ms
 * (heartbeats every third of it), over {@value #LEASES} leases the heartbeat's age on the database's clock stays below
 * the lease and another holder is refused at every try; once the holder stops, the other takes the node id over within
 * a lease and a heartbeat, and the first, claiming again, is the one refused. MariaDB (the age in microseconds on UTC)
 * and PostgreSQL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class XaNodeHeartbeatHoldsTheClaimOverSeveralLeasesTest {

    private static final long LEASE_MS = 2_000;
    private static final Duration LEASE = Duration.ofMillis(LEASE_MS);
    private static final int LEASES = 3;
    private static final String NODE = "node-lease-test";
    private static final String FIRST = "first-host:/var/lib/legacy-gateway/tx-log";
    private static final String SECOND = "second-host:/var/lib/legacy-gateway/tx-log";
    private static final String SCHEMA = TestDatabase.uniqueName(XaNodeHeartbeatHoldsTheClaimOverSeveralLeasesTest.class);

    private DriverManagerDataSource postgres;
    private DriverManagerDataSource mariadb;

    @BeforeAll
    void schemas() throws Exception {
        postgres = new DriverManagerDataSource(TestDatabase.POSTGRES.create(SCHEMA), "postgres", "");
        SchemaScripts.apply(postgres, Dialect.POSTGRESQL, "relay-state.sql");
        mariadb = new DriverManagerDataSource(TestDatabase.MARIADB.create(SCHEMA), TestDatabase.MARIADB.username(),
                "");
        SchemaScripts.apply(mariadb, Dialect.MARIADB, "relay-state.sql");
    }

    @AfterAll
    void drop() throws Exception {
        TestDatabase.POSTGRES.drop(SCHEMA);
        TestDatabase.MARIADB.drop(SCHEMA);
    }

    @Test
    void postgresHeartbeatKeepsTheNodeIdOverSeveralLeases() {
        holdsOverSeveralLeasesThenGivesItUp(postgres, Dialect.POSTGRESQL);
    }

    @Test
    void mariaDbHeartbeatKeepsTheNodeIdOverSeveralLeases() {
        holdsOverSeveralLeasesThenGivesItUp(mariadb, Dialect.MARIADB);
    }

    private static void holdsOverSeveralLeasesThenGivesItUp(DriverManagerDataSource ds, Dialect dialect) {
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        XaNodeClaim first = XaNodeClaim.claim("legacy", ds, dialect, NODE, FIRST, "relay 'first'", LEASE);
        try {
            // every try within these leases: the second holder is refused, and the heartbeat is never a lease old
            await().pollInterval(Duration.ofMillis(LEASE_MS / 2)).during(LEASE.multipliedBy(LEASES))
                    .atMost(LEASE.multipliedBy(LEASES + 2)).until(() -> {
                        double age = heartbeatAge(jdbc, dialect);
                        assertThat(age).as("heartbeat age in seconds").isLessThan(LEASE_MS / 1000.0);
                        assertThatThrownBy(() -> XaNodeClaim.claim("legacy", ds, dialect, NODE, SECOND,
                                "relay 'second'", LEASE)).hasMessageContaining(XaTransactions.NODE_ID)
                                .hasMessageContaining(FIRST);
                        return true;
                    });
            assertThat(first.lost()).isFalse();
        } finally {
            first.close();
        }

        // the holder stopped: its lease lapses and the second takes the node id over
        AtomicReference<XaNodeClaim> second = new AtomicReference<>();
        await().atMost(LEASE.multipliedBy(3)).pollInterval(Duration.ofMillis(200)).until(() -> {
            try {
                second.set(XaNodeClaim.claim("legacy", ds, dialect, NODE, SECOND, "relay 'second'", LEASE));
                return true;
            } catch (IllegalStateException stillHeld) {
                return false;
            }
        });
        try {
            assertThat(jdbc.queryForObject("SELECT holder FROM " + XaNodeClaim.TABLE + " WHERE node_id = ?",
                    String.class, NODE)).isEqualTo(SECOND);
            // and it holds it over the next lease in turn: the first, back, is refused at each try
            await().pollInterval(Duration.ofMillis(LEASE_MS / 2)).during(LEASE)
                    .atMost(LEASE.multipliedBy(3)).until(() -> {
                        assertThatThrownBy(() -> XaNodeClaim.claim("legacy", ds, dialect, NODE, FIRST,
                                "relay 'first'", LEASE)).hasMessageContaining(SECOND);
                        return true;
                    });
            assertThat(second.get().lost()).isFalse();
        } finally {
            second.get().close();
            jdbc.update("DELETE FROM " + XaNodeClaim.TABLE);
        }
    }

    private static double heartbeatAge(JdbcTemplate jdbc, Dialect dialect) {
        // xaNode.read locks the row (FOR UPDATE) until its transaction ends: here autocommit ends it at once
        Map<String, Object> row = jdbc.queryForMap(dialect.sql("xaNode.read", Map.of()), NODE);
        return ((Number) row.values().toArray()[1]).doubleValue();
    }
}
