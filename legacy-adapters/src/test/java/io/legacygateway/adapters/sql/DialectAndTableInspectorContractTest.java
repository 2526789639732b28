package io.legacygateway.adapters.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.testsupport.ContractDatabaseTest;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.dao.DataAccessException;

/**
 * What the gateway learns from a live database before any statement runs: the {@link Dialect} from the JDBC metadata
 * (never configured), a configured table by {@link TableInspector} (case-insensitively, {@code _} not a wildcard, with
 * its columns as stored, their sizes and its primary key), a mapping refused at startup naming the parameter, quoted
 * identifiers that make a reserved word a usable name, and the database's own errors told apart into a row's refusal
 * and an outage by {@link Dialect#refusedRows}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DialectAndTableInspectorContractTest implements ContractDatabaseTest {

    TestSchema schema;

    /** The schema (PostgreSQL, H2) or database (MariaDB) that holds this class's tables. */
    String storedSchema() {
        return schema.name();
    }

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(database(), getClass(), GatewaySchema.OUTBOX);
        schema.jdbc().execute("CREATE TABLE legacy_orders (order_no BIGINT NOT NULL, line_no INT NOT NULL,"
                + " note VARCHAR(40), amount DECIMAL(9,2), PRIMARY KEY (order_no, line_no))");
        schema.jdbc().execute("CREATE TABLE abxc (id INT PRIMARY KEY)");
        schema.jdbc().execute("CREATE TABLE ab_c (id INT PRIMARY KEY)");
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    private TableInspector.Table inspect(String schemaName, String table) {
        return TableInspector.inspect(schema.dataSource(), schema.dialect(), new TableName(schemaName, table), "table");
    }

    @Test
    void theDialectIsDetectedFromTheJdbcMetadata() {
        assertThat(Dialect.detect(schema.dataSource())).isEqualTo(database().dialect());
        assertThat(Dialect.detect(schema.dataSource()).testedHere()).isTrue();
    }

    @Test
    void aTableIsFoundIgnoringCaseWithItsColumnsSizesAndPrimaryKeyAsStored() {
        TableInspector.Table table = inspect(null, "LEGACY_Orders");

        assertThat(table.name().table()).isEqualToIgnoringCase("legacy_orders");
        assertThat(table.name().schema()).as("unqualified as configured").isNull();
        assertThat(table.columns()).containsOnlyKeys("order_no", "line_no", "note", "amount");
        assertThat(table.columns().keySet()).containsExactly("order_no", "line_no", "note", "amount");
        assertThat(table.primaryKey()).map(String::toLowerCase).containsExactly("order_no", "line_no");
        TableInspector.Column note = table.column("NOTE").orElseThrow();
        assertThat(note.jdbcType()).isEqualTo(Types.VARCHAR);
        assertThat(note.size()).isEqualTo(40);
        assertThat(note.nullable()).isTrue();
        TableInspector.Column amount = table.column("amount").orElseThrow();
        assertThat(amount.size()).isEqualTo(9);
        assertThat(amount.scale()).isEqualTo(2);
        assertThat(table.column("order_no").orElseThrow().nullable()).isFalse();
        assertThat(table.column("missing")).isEmpty();
    }

    @Test
    void aSchemaQualifiedNameFindsTheTableInThatSchema() {
        TableInspector.Table table = inspect(storedSchema(), "legacy_orders");

        assertThat(table.name().schema()).isEqualToIgnoringCase(storedSchema());
        assertThat(schema.jdbc().queryForObject("SELECT count(*) FROM " + schema.dialect().quote(table.name()),
                Integer.class)).isZero();
    }

    @Test
    void anUnderscoreInTheNameIsNotAWildcard() {
        assertThat(inspect(null, "ab_c").name().table()).isEqualToIgnoringCase("ab_c");
        assertThat(inspect(null, "abxc").name().table()).isEqualToIgnoringCase("abxc");
    }

    @Test
    void aMissingTableIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, "no_such_table"), "gateway.relays.orders.table"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("gateway.relays.orders.table: table 'no_such_table' does not exist");
    }

    @Test
    void aReservedWordIsAUsableTableNameOnceQuoted() {
        Dialect d = schema.dialect();
        schema.jdbc().execute("CREATE TABLE " + d.quote("order") + " (" + d.quote("select") + " INT PRIMARY KEY)");
        try {
            TableInspector.Table table = inspect(null, "order");
            schema.jdbc().update("INSERT INTO " + d.quote(table.name()) + " (" + d.quote("select") + ") VALUES (?)", 7);
            assertThat(schema.jdbc().queryForObject("SELECT " + d.quote("select") + " FROM " + d.quote(table.name()),
                    Integer.class)).isEqualTo(7);
        } finally {
            schema.jdbc().execute("DROP TABLE " + d.quote("order"));
        }
    }

    @Test
    void aMappingThatDoesNotFitTheLiveTableIsRefusedNamingTheParameter() {
        TableInspector.Table outbox = inspect(null, "outbox");
        assertThatThrownBy(() -> resolve(outbox, Map.of("eventTypeColumn", "kind"), "PENDING"))
                .hasMessageStartingWith("relay 'orders' parameter 'eventTypeColumn': column 'kind' does not exist");
        assertThatThrownBy(() -> resolve(outbox, Map.of("payloadColumn", "retry_count"), "PENDING"))
                .hasMessageStartingWith("relay 'orders' parameter 'payloadColumn': ")
                .satisfies(e -> assertThat(e.getMessage()).as("the column as stored")
                        .containsIgnoringCase("column 'retry_count' has type"));
        assertThatThrownBy(() -> resolve(outbox, Map.of("payloadColumn", "payload; DROP TABLE outbox"), "PENDING"))
                .hasMessageContaining("is not a safe SQL identifier");
        assertThatThrownBy(() -> resolve(outbox, Map.of(), "WAITING_FOR_THE_BROKER"))
                .hasMessageStartingWith("relay 'orders' parameter 'pendingStatus': 'WAITING_FOR_THE_BROKER' does not"
                        + " fit column '").hasMessageEndingWith("(at most 16 characters)");
        assertThat(resolve(outbox, Map.of(), "PENDING").column(io.legacygateway.adapters.outbox.mapping.OutboxColumn.PAYLOAD))
                .isEqualToIgnoringCase("payload");
    }

    private static OutboxMapping resolve(TableInspector.Table table, Map<String, String> configured, String pending) {
        return OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.STATUS, configured, pending,
                "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> "relay 'orders' parameter '" + p + "'");
    }

    @Test
    void theDatabasesOwnErrorsAreToldApartIntoARowsRefusalAndAnOutage() {
        DataAccessException notNull = catchFrom("INSERT INTO legacy_orders (order_no, line_no) VALUES (1, NULL)");
        DataAccessException tooLong = catchFrom("INSERT INTO legacy_orders (order_no, line_no, note) VALUES (1, 1, '"
                + "x".repeat(41) + "')");
        DataAccessException noTable = catchFrom("SELECT * FROM no_such_table");

        assertThat((Throwable) schema.dialect().refusedRows(notNull)).as("NOT NULL: the row's data").isNotNull();
        assertThat((Throwable) schema.dialect().refusedRows(tooLong)).as("too long: the row's data").isNotNull();
        assertThat((Throwable) schema.dialect().refusedRows(noTable)).as("a missing table is no row's fault").isNull();
    }

    private DataAccessException catchFrom(String sql) {
        try {
            schema.jdbc().execute(sql);
        } catch (DataAccessException e) {
            return e;
        }
        throw new AssertionError("the database accepted " + sql);
    }
}
