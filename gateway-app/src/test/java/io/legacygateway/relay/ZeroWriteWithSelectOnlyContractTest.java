package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * Least privilege, written once: a ZERO_WRITE relay runs with a database user that may only SELECT the legacy table
 * (on MariaDB also PROCESS, which the method needs), and keeps its position and rejections in another datasource
 * ({@code state}) where the gateway may write. The test first proves its premise: that user cannot write.
 *
 * <p>Datasources: {@code readonly} (the restricted user on the application's schema, no schema initialisation) and
 * {@code legacy} (the gateway's own schema with its tables, the relay's {@code stateDataSource}). The legacy
 * application writes its rows as the schema's owner ({@link #application()}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class ZeroWriteWithSelectOnlyContractTest extends RelayTestSupport {

    static final String TABLE = "ledger_events";

    /** The privileges the restricted user holds, as the database lists them. */
    protected abstract List<String> grantsOfTheRestrictedUser(JdbcTemplate admin);

    /** The legacy application's connection: the owner of the application's schema. */
    protected abstract JdbcTemplate application();

    /** A statement the legacy application may run and the restricted user may not. */
    protected String forbiddenWrite() {
        return "UPDATE " + TABLE + " SET kind = 'tampered'";
    }

    private JdbcTemplate admin() {
        return application();
    }

    private void write(String account, String kind) {
        admin().update("INSERT INTO " + TABLE + " (account, kind, body) VALUES (?, ?, ?)", account, kind,
                "{\"account\":\"" + account + "\",\"kind\":\"" + kind + "\"}");
    }

    private OutboxRelay readOnlyRelay(String queue) {
        Map<String, Object> p = new HashMap<>();
        p.put("dataSource", "readonly");
        p.put("stateDataSource", "legacy");
        p.put("table", TABLE);
        p.put("markMode", "ZERO_WRITE");
        p.put("keyColumn", "id");
        p.put("orderColumn", "id");
        p.put("eventId", "ledger-{key}");
        p.put("aggregateType", "Account");
        p.put("aggregateIdColumn", "account");
        p.put("eventTypeColumn", "kind");
        p.put("payloadColumn", "body");
        return relay(unique("readonly"), "queue:" + queue, p);
    }

    @Test
    void theRestrictedUserCannotWriteToTheLegacyTable() {
        JdbcTemplate restricted = new JdbcTemplate(dataSources.get("readonly", "test"));
        assertThat(restricted.queryForObject("SELECT COUNT(*) FROM " + TABLE, Integer.class)).isNotNegative();
        assertThatThrownBy(() -> restricted.update(forbiddenWrite())).isInstanceOf(DataAccessException.class)
                .satisfies(e -> assertThat(((DataAccessException) e).getMostSpecificCause().getMessage())
                        .containsIgnoringCase("denied"));
        assertThatThrownBy(() -> restricted.update("DELETE FROM " + TABLE)).isInstanceOf(DataAccessException.class);
        assertThat(grantsOfTheRestrictedUser(admin())).as("what the user may do").allSatisfy(g ->
                assertThat(g.toUpperCase()).doesNotContain("INSERT").doesNotContain("UPDATE").doesNotContain("DELETE"));
    }

    @Test
    void zeroWritePublishesEveryRowWithSelectOnlyAndKeepsItsPositionElsewhere() {
        write("acc-1", "Deposited");
        write("acc-2", "Deposited");
        write("acc-1", "Withdrawn");
        String queue = unique("it.readonly");
        OutboxRelay relay = readOnlyRelay(queue);
        AtomicInteger published = new AtomicInteger();

        // zero-write waits for the oldest transaction of the whole server: generous, for other suites on this machine
        Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> published.addAndGet(drain(relay)) >= 3);
        write("acc-2", "Withdrawn");
        Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> published.addAndGet(drain(relay)) >= 4);

        assertThat(published.get()).isEqualTo(4);
        List<Long> ids = admin().queryForList("SELECT id FROM " + TABLE + " ORDER BY id", Long.class);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactlyElementsOf(ids.stream().map(id -> "ledger-" + id).toList());
        JdbcTemplate state = new JdbcTemplate(dataSources.get("legacy", "test"));
        assertThat(state.queryForObject("SELECT COUNT(*) FROM gateway_outbox_position WHERE relay = ?",
                Integer.class, relay.name())).isEqualTo(1);
        assertThat(admin().queryForList("SELECT kind FROM " + TABLE, String.class)).doesNotContain("tampered");
    }
}
