package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.FailedRow;
import io.legacygateway.config.TemplateParameters;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Failure: the database refuses the mark of one row of a batch (a trigger raises for it, a CHECK constraint only it
 * violates, a value that does not fit its column). Before the fix the relay took that for an outage: the cycle rolled
 * back, the batch's good rows, already on the broker, were never marked, and the same batch was sent again every cycle,
 * forever. Now the refusal is charged to that row: the others are marked, the offender is parked as FAILED with the
 * database's reason (on the row when the row takes the write, else in {@code gateway_outbox_rejection}), it is not
 * claimed again, and the relay goes on. Values that cannot fit a column are refused at startup, naming the parameter.
 *
 * <p>Written once, run on each real database by a small subclass: the subclass creates the refusing trigger and the
 * table with a one-character status flag in its own SQL, and registers datasource {@code restricted}, the same
 * database as {@code legacy} for a user with SELECT and UPDATE on {@code outbox} only.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class MarkFailingForOneRowIsChargedToThatRowContractTest extends RelayTestSupport {

    static final String FLAG_TABLE = "flag_outbox";
    static final String REFUSAL = "order poison may not be marked";

    @Autowired
    MeterRegistry meters;

    /**
     * A BEFORE {@code event} (UPDATE or DELETE) trigger on {@code outbox} named {@code refuse_mark} that raises
     * {@link #REFUSAL} when {@code when} holds (a condition on NEW, or OLD for DELETE).
     */
    protected abstract void createRefusingTrigger(String event, String when);

    protected abstract void dropRefusingTrigger();

    /**
     * CREATE TABLE {@link #FLAG_TABLE}: the default outbox's columns, but {@code status CHAR(1)} and {@code locked_by}
     * of 8 characters.
     */
    protected abstract String createFlagTable();

    @BeforeEach
    void noLeftovers() {
        rows.jdbc().update("DELETE FROM gateway_outbox_rejection");
        rows.jdbc().execute("DROP TABLE IF EXISTS " + FLAG_TABLE);
    }

    @AfterEach
    void dropRefusals() {
        dropRefusingTrigger();
        rows.jdbc().execute("ALTER TABLE outbox DROP CONSTRAINT IF EXISTS ck_poison");
    }

    @Test
    void aTriggerRefusingOneRowsMarkParksThatRowAndTheOthersArePublishedOnceWhileTheRelayGoesOn() {
        createRefusingTrigger("UPDATE", "NEW.aggregate_id = 'poison' AND NEW.status = 'PUBLISHED'");
        String queue = unique("it.mark-trigger");
        OutboxRelay relay = relay(unique("mark-trigger"), "queue:" + queue, Map.of());
        String a1 = rows.insert("order-a", "OrderCreated", "{\"n\":1}");
        String poison = rows.insert("poison", "OrderCreated", "{\"n\":2}");
        String b1 = rows.insert("order-b", "OrderCreated", "{\"n\":3}");

        assertThat(drain(relay)).as("the broker confirmed all three").isEqualTo(3);
        assertThat(rows.status(a1)).isEqualTo("PUBLISHED");
        assertThat(rows.status(b1)).isEqualTo("PUBLISHED");
        assertThat(rows.status(poison)).as("parked on the row, which takes the FAILED write").isEqualTo("FAILED");
        assertThat(lastError(poison)).startsWith("published to the broker, but the database refused its mark: ")
                .contains(REFUSAL);
        assertThat(rejectionEntries()).as("nothing needed the gateway's table").isZero();

        String a2 = rows.insert("order-a", "OrderPaid", "{\"n\":4}");
        String b2 = rows.insert("order-b", "OrderPaid", "{\"n\":5}");
        assertThat(drain(relay)).as("the relay goes on with the next batch").isEqualTo(2);
        assertThat(drain(relay)).isZero();
        assertThat(drain(relay)).isZero();

        assertThat(faults.publishedBatches(relay.name())).as("no batch is sent twice")
                .containsExactly(List.of(a1, poison, b1), List.of(a2, b2));
        assertThat(ids(queue)).as("each event on the queue exactly once").containsExactly(a1, poison, b1, a2, b2);
        assertThat(counter("gateway.outbox.publish.failures", relay)).as("not an outage").isZero();
        assertThat(counter("gateway.outbox.parked", relay)).isEqualTo(1.0);
        assertThat(counter("gateway.outbox.published", relay)).isEqualTo(5.0);
    }

    @Test
    void aRowThatRefusesEveryWriteIsParkedInTheGatewaysTableAndNotClaimedAgainUntilRetried() {
        createRefusingTrigger("UPDATE", "NEW.aggregate_id = 'poison'");
        String queue = unique("it.mark-any");
        OutboxRelay relay = relay(unique("mark-any"), "queue:" + queue, Map.of());
        String a1 = rows.insert("order-a", "OrderCreated", "{}");
        String poison = rows.insert("poison", "OrderCreated", "{}");
        String b1 = rows.insert("order-b", "OrderCreated", "{}");

        assertThat(drain(relay)).isEqualTo(3);
        assertThat(rows.status(a1)).isEqualTo("PUBLISHED");
        assertThat(rows.status(b1)).isEqualTo("PUBLISHED");
        assertThat(rows.status(poison)).as("the row takes no write at all").isEqualTo("PENDING");
        Map<String, Object> entry = rows.jdbc().queryForMap(
                "SELECT * FROM gateway_outbox_rejection WHERE row_key = ?", key(poison));
        assertThat(value(entry, "state")).isEqualTo("FAILED");
        assertThat(value(entry, "relay")).isEqualTo(relay.name());
        assertThat(value(entry, "event_id")).isEqualTo(poison);
        assertThat(String.valueOf(value(entry, "reason")))
                .startsWith("published to the broker, but the database refused its mark: ").contains(REFUSAL);

        for (int i = 0; i < 3; i++) {
            assertThat(drain(relay)).as("the parked row is not claimed again").isZero();
        }
        String a2 = rows.insert("order-a", "OrderPaid", "{}");
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(faults.publishedBatches(relay.name())).containsExactly(List.of(a1, poison, b1), List.of(a2));
        assertThat(relay.source().backlog(Instant.now()).pending()).as("a parked row is not pending").isZero();
        assertThat(relay.source().backlog(Instant.now()).failed()).isEqualTo(1);
        List<FailedRow> failed = relay.source().failed(10);
        assertThat(failed).singleElement().satisfies(f -> {
            assertThat(f.row().eventId()).isEqualTo(poison);
            assertThat(f.reason()).contains(REFUSAL);
        });
        assertThat(counter("gateway.outbox.publish.failures", relay)).isZero();

        // the owner drops the trigger; an operator's retry publishes the row again and this time it is marked
        dropRefusingTrigger();
        Integer retried = relay.transaction().execute(s -> relay.source().retry(failed));
        assertThat(retried).isEqualTo(1);
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(rows.status(poison)).isEqualTo("PUBLISHED");
        assertThat(rejectionEntries()).as("the entry goes once the row is marked").isZero();
        assertThat(ids(queue)).as("the resent copy is dropped by the broker's duplicate detection")
                .containsExactly(a1, poison, b1, a2);
    }

    @Test
    void inTimestampModeARowThatRefusesEveryWriteIsParkedInTheGatewaysTable() {
        createRefusingTrigger("UPDATE", "NEW.aggregate_id = 'poison'");
        String queue = unique("it.mark-ts");
        OutboxRelay relay = relay(unique("mark-ts"), "queue:" + queue, Map.of("markMode", "TIMESTAMP",
                "publishedAtColumn", "published_at"));
        String a1 = rows.insert("order-a", "OrderCreated", "{}");
        String poison = rows.insert("poison", "OrderCreated", "{}");

        assertThat(drain(relay)).isEqualTo(2);
        assertThat(rows.row(a1).get("published_at")).isNotNull();
        assertThat(rows.row(poison).get("published_at")).as("the row takes no write").isNull();
        assertThat(String.valueOf(value(rows.jdbc().queryForMap("SELECT * FROM gateway_outbox_rejection WHERE"
                + " row_key = ? AND state = 'FAILED'", key(poison)), "reason"))).contains(REFUSAL);
        String a2 = rows.insert("order-a", "OrderPaid", "{}");
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(drain(relay)).isZero();
        assertThat(faults.publishedBatches(relay.name())).containsExactly(List.of(a1, poison), List.of(a2));
        assertThat(ids(queue)).containsExactly(a1, poison, a2);
    }

    @Test
    void inDeleteModeARowWhoseDeleteIsRefusedStaysParkedInTheGatewaysTable() {
        createRefusingTrigger("DELETE", "OLD.aggregate_id = 'poison'");
        String queue = unique("it.mark-del");
        OutboxRelay relay = relay(unique("mark-del"), "queue:" + queue, Map.of("markMode", "DELETE"));
        String a1 = rows.insert("order-a", "OrderCreated", "{}");
        String poison = rows.insert("poison", "OrderCreated", "{}");
        String b1 = rows.insert("order-b", "OrderCreated", "{}");

        assertThat(drain(relay)).isEqualTo(3);
        assertThat(rows.jdbc().queryForList("SELECT id FROM outbox", String.class)).containsExactly(poison);
        assertThat(String.valueOf(value(rows.jdbc().queryForMap("SELECT * FROM gateway_outbox_rejection WHERE"
                + " row_key = ? AND state = 'FAILED'", key(poison)), "reason")))
                .startsWith("published to the broker, but the database refused its mark: ").contains(REFUSAL);
        assertThat(drain(relay)).isZero();
        assertThat(drain(relay)).isZero();
        assertThat(faults.publishedBatches(relay.name())).containsExactly(List.of(a1, poison, b1));
        assertThat(ids(queue)).containsExactly(a1, poison, b1);
        assertThat(counter("gateway.outbox.publish.failures", relay)).isZero();
    }

    @Test
    void aCheckConstraintOnlyOneRowViolatesOnMarkParksThatRow() {
        rows.jdbc().execute("ALTER TABLE outbox ADD CONSTRAINT ck_poison"
                + " CHECK (status <> 'PUBLISHED' OR aggregate_id <> 'poison')");
        String queue = unique("it.mark-check");
        OutboxRelay relay = relay(unique("mark-check"), "queue:" + queue, Map.of());
        String a1 = rows.insert("order-a", "OrderCreated", "{}");
        String poison = rows.insert("poison", "OrderCreated", "{}");
        String a2 = rows.insert("order-a", "OrderPaid", "{}");

        assertThat(drain(relay)).isEqualTo(3);
        assertThat(rows.status(a1)).isEqualTo("PUBLISHED");
        assertThat(rows.status(a2)).isEqualTo("PUBLISHED");
        assertThat(rows.status(poison)).isEqualTo("FAILED");
        assertThat(lastError(poison)).contains("ck_poison");
        assertThat(drain(relay)).isZero();
        assertThat(faults.publishedBatches(relay.name())).containsExactly(List.of(a1, poison, a2));
        assertThat(ids(queue)).containsExactly(a1, poison, a2);
    }

    @Test
    void aFailedAttemptWhoseRecordIsRefusedIsParkedInTheGatewaysTableAndTheBatchIsMarked() {
        // the legacy owner allows no error text on that aggregate's rows: the failed attempt cannot be written
        rows.jdbc().execute("ALTER TABLE outbox ADD CONSTRAINT ck_poison"
                + " CHECK (last_error IS NULL OR aggregate_id <> 'poison')");
        String queue = unique("it.mark-failure");
        OutboxRelay relay = relay(unique("mark-failure"), "queue:" + queue, Map.of());
        String a1 = rows.insert("order-a", "OrderCreated", "{}");
        String poison = rows.insert("poison", "OrderCreated", "{not json");
        String b1 = rows.insert("order-b", "OrderCreated", "{}");

        assertThat(drain(relay)).isEqualTo(2);
        assertThat(rows.status(a1)).isEqualTo("PUBLISHED");
        assertThat(rows.status(b1)).isEqualTo("PUBLISHED");
        assertThat(rows.status(poison)).isEqualTo("PENDING");
        assertThat(retryCount(poison)).as("the row took no write").isZero();
        Map<String, Object> entry = rows.jdbc().queryForMap(
                "SELECT * FROM gateway_outbox_rejection WHERE row_key = ?", key(poison));
        assertThat(value(entry, "state")).isEqualTo("FAILED");
        assertThat(String.valueOf(value(entry, "reason"))).startsWith("payload: not valid JSON")
                .contains("; the database refused to record this failed attempt: ").contains("ck_poison");
        assertThat(drain(relay)).isZero();
        assertThat(faults.publishedBatches(relay.name())).containsExactly(List.of(a1, b1));
        assertThat(ids(queue)).containsExactly(a1, b1);
        assertThat(counter("gateway.outbox.publish.failures", relay)).isZero();
        assertThat(counter("gateway.outbox.parked", relay)).isEqualTo(1.0);
    }

    @Test
    void aStatusRelayWhoseUserMayNotReadTheGatewaysTableWorksWithoutIt() {
        // datasource 'restricted': a user with SELECT and UPDATE on outbox only; gateway_outbox_rejection exists
        String queue = unique("it.mark-restricted");
        OutboxRelay relay = relay(unique("restricted"), "queue:" + queue,
                Map.of("dataSource", "restricted", "attemptLog", "false"));
        String a1 = rows.insert("order-a", "OrderCreated", "{}");
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(rows.status(a1)).isEqualTo("PUBLISHED");
        assertThat(ids(queue)).containsExactly(a1);
    }

    @Test
    void aOneCharacterStatusColumnWithTheDefaultFailedStatusFailsStartupNamingFailedStatus() {
        rows.jdbc().execute(createFlagTable());
        String name = unique("flag");
        Map<String, Object> flags = Map.of("table", FLAG_TABLE, "pendingStatus", "P", "publishedStatus", "S",
                "lockedByColumn", "none");
        Map<String, Object> defaultFailed = merge(flags,
                Map.of("failedStatus", TemplateParameters.definition(RelayParameters.class, "failedStatus").defaultValue()));
        assertThatThrownBy(() -> relay(name, "queue:" + unique("it.flag"), defaultFailed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("outbox-relay '" + name + "' parameter 'failedStatus': 'FAILED' does not fit"
                        + " column 'status' char(1) of table '" + FLAG_TABLE + "'");

        Map<String, Object> fitting = merge(flags, Map.of("failedStatus", "F", "maxAttempts", "1"));
        String queue = unique("it.flag");
        OutboxRelay relay = relay(name, "queue:" + queue, fitting);
        rows.jdbc().update("INSERT INTO " + FLAG_TABLE + " (id, aggregate_type, aggregate_id, event_type, payload,"
                + " status) VALUES ('f-1', 'Order', 'o-1', 'OrderCreated', '{}', 'P'),"
                + " ('f-2', 'Order', 'o-2', 'OrderCreated', '{bad', 'P')");
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(rows.jdbc().queryForList("SELECT status FROM " + FLAG_TABLE + " ORDER BY seq", String.class))
                .containsExactly("S", "F");
        assertThat(ids(queue)).containsExactly("f-1");
    }

    @Test
    void aMarkerValueThatDoesNotFitItsColumnOrCannotBeToldApartFailsStartupNamingTheParameter() {
        rows.jdbc().execute(createFlagTable());
        String name = unique("flag");
        Map<String, Object> flags = Map.of("table", FLAG_TABLE, "pendingStatus", "P", "publishedStatus", "S",
                "failedStatus", "F");
        assertThatThrownBy(() -> relay(name, "queue:q", merge(flags, Map.of("pendingStatus", "PENDING"))))
                .hasMessageStartingWith("outbox-relay '" + name + "' parameter 'pendingStatus': 'PENDING' does not fit"
                        + " column 'status' char(1)");
        assertThatThrownBy(() -> relay(name, "queue:q", merge(flags, Map.of("publishedStatus", "p"))))
                .hasMessageStartingWith("outbox-relay '" + name + "' parameter 'publishedStatus': 'p' cannot be told"
                        + " apart from pendingStatus 'P'");
        assertThatThrownBy(() -> relay(name, "queue:q", flags))
                .hasMessageStartingWith("outbox-relay '" + name + "' parameter 'lockedByColumn': the relay writes '"
                        + name + "@")
                .hasMessageContaining("does not fit column 'locked_by' varchar(8) of table '" + FLAG_TABLE + "'");
    }

    private static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> changes) {
        Map<String, Object> m = new HashMap<>(base);
        m.putAll(changes);
        return m;
    }

    private String key(String eventId) {
        return rows.jdbc().queryForObject("SELECT seq FROM outbox WHERE id = ?", String.class, eventId);
    }

    private String lastError(String eventId) {
        return rows.jdbc().queryForObject("SELECT last_error FROM outbox WHERE id = ?", String.class, eventId);
    }

    private int retryCount(String eventId) {
        return rows.jdbc().queryForObject("SELECT retry_count FROM outbox WHERE id = ?", Integer.class, eventId);
    }

    private int rejectionEntries() {
        return rows.jdbc().queryForObject("SELECT COUNT(*) FROM gateway_outbox_rejection", Integer.class);
    }

    private double counter(String name, OutboxRelay relay) {
        return meters.counter(name, "relay", relay.name()).count();
    }

    private List<String> ids(String queue) {
        return broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
    }

    private static Object value(Map<String, Object> row, String column) {
        return row.get(OutboxRelayContractTest.column(row, column));
    }
}
