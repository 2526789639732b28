package io.legacygateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.testsupport.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A PostgreSQL table whose rows are routed elsewhere: old-style partitions (inheritance children filled by INSTEAD
 * rules, as the DVD-rental sample schema does for the payments of other years) and declarative partitions. A row
 * trigger fires on the table that receives the row, so a capture on the parent alone wrote no outbox row for the
 * routed rows, and {@code triggers} said nothing. Now the children get triggers of their own, partitions get the
 * parent's (PostgreSQL clones it, also onto partitions attached later), and a rule that routes a captured write to a
 * table outside the capture is refused, naming it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresCaptureOfInheritedAndRuleRoutedTablesTest {

    private String schema;
    private JdbcTemplate db;
    private GatewayDataSources dataSources;

    @BeforeAll
    void schema() throws SQLException {
        schema = TestDatabase.uniqueName(getClass());
        String url = TestDatabase.POSTGRES.create(schema);
        db = new JdbcTemplate(new DriverManagerDataSource(url, "postgres", ""));
        SchemaScripts.apply(db.getDataSource(), Dialect.detect(db.getDataSource()), "outbox.sql");
        dataSources = new GatewayDataSources(new Binder(new MapConfigurationPropertySource(Map.of(
                "gateway.datasources.legacy.url", url, "gateway.datasources.legacy.username", "postgres",
                "gateway.datasources.legacy.password", "", "gateway.datasources.legacy.maximum-pool-size", "2")))
                .bind("gateway", GatewayProperties.class).get());
    }

    @AfterAll
    void drop() throws SQLException {
        dataSources.destroy();
        TestDatabase.POSTGRES.drop(schema);
    }

    @BeforeEach
    void tables() {
        db.execute("DROP TABLE IF EXISTS payment, payment_archive, rental CASCADE");
        db.execute("DROP FUNCTION IF EXISTS gw_capture_payment(), gw_capture_rental()");
        db.update("DELETE FROM outbox");
        // as the sample schema: the payments of 2007 live in a child, an INSTEAD rule routes them there
        db.execute("CREATE TABLE payment (payment_id INT PRIMARY KEY, amount NUMERIC(5,2) NOT NULL,"
                + " payment_date DATE NOT NULL)");
        db.execute("CREATE TABLE payment_p2007 (CHECK (payment_date >= DATE '2007-01-01')) INHERITS (payment)");
        db.execute("CREATE RULE payment_insert_p2007 AS ON INSERT TO payment WHERE new.payment_date >= DATE"
                + " '2007-01-01' DO INSTEAD INSERT INTO payment_p2007 VALUES (new.*)");
        db.execute("CREATE TABLE rental (rental_id INT, rental_date DATE NOT NULL,"
                + " PRIMARY KEY (rental_id, rental_date)) PARTITION BY RANGE (rental_date)");
        db.execute("CREATE TABLE rental_2007 PARTITION OF rental FOR VALUES FROM ('2007-01-01') TO ('2008-01-01')");
    }

    private List<String> outbox() {
        return db.queryForList("SELECT event_type || ' ' || aggregate_id || ' ' || (payload::jsonb ->> 'table')"
                + " FROM outbox ORDER BY seq", String.class);
    }

    @Test
    void rowsRoutedToAnInheritanceChildByAnInsteadRuleAreCaptured() {
        String install = triggers("--table=payment", "--install");
        assertThat(install).contains("Installed the capture of " + schema + ".payment and of its inheritance"
                + " children [" + schema + ".payment_p2007]");

        db.update("INSERT INTO payment VALUES (1, 9.99, DATE '2007-03-01')");   // routed to the child by the rule
        db.update("INSERT INTO payment VALUES (2, 1.99, DATE '2006-12-31')");   // stays in the parent
        db.update("UPDATE payment SET amount = 4.99 WHERE payment_id = 1");
        db.update("DELETE FROM payment WHERE payment_id = 1");

        assertThat(outbox()).containsExactly("payment.Inserted 1 payment", "payment.Inserted 2 payment",
                "payment.Updated 1 payment", "payment.Deleted 1 payment");

        String removed = triggers("--table=payment", "--remove");
        assertThat(removed).contains("Removed the capture");
        assertThat(db.queryForObject("SELECT count(*) FROM pg_trigger WHERE tgname = 'gw_capture_payment'",
                Integer.class)).isZero();
    }

    @Test
    void theSnapshotIncludesTheChildrensRowsOnce() {
        db.update("INSERT INTO payment VALUES (1, 9.99, DATE '2007-03-01')");
        db.update("INSERT INTO payment VALUES (2, 1.99, DATE '2006-12-31')");

        String install = triggers("--table=payment", "--install", "--snapshot");

        assertThat(install).contains("snapshot: 2 existing rows");
        assertThat(outbox()).containsExactly("payment.Snapshot 1 payment", "payment.Snapshot 2 payment");
    }

    @Test
    void aRuleThatRoutesAWriteOutOfTheCaptureIsRefusedNamingIt() {
        db.execute("CREATE TABLE payment_archive (LIKE payment)");
        db.execute("CREATE RULE payment_insert_old AS ON INSERT TO payment WHERE new.payment_date < DATE"
                + " '2000-01-01' DO INSTEAD INSERT INTO payment_archive VALUES (new.*)");

        String dryRun = triggers("--table=payment", "--dry-run");
        String install = triggers("--table=payment", "--install");

        for (String output : List.of(dryRun, install)) {
            assertThat(output).contains("refused: nothing was installed")
                    .contains("rule 'payment_insert_old' on " + schema + ".payment turns an INSERT into a write to "
                            + schema + ".payment_archive");
        }
        assertThat(db.queryForObject("SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND NOT t.tgisinternal",
                Integer.class, schema)).isZero();
        // a capture without INSERT does not depend on that rule
        assertThat(triggers("--table=payment", "--install", "--operations=UPDATE,DELETE"))
                .contains("Installed the capture");
    }

    @Test
    void rowsOfDeclarativePartitionsAreCapturedOnceAlsoInAPartitionAttachedLater() {
        String install = triggers("--table=rental", "--install");
        assertThat(install).contains("and its partitions [" + schema + ".rental_2007]");

        db.update("INSERT INTO rental VALUES (1, DATE '2007-05-05')");
        db.execute("CREATE TABLE rental_2008 PARTITION OF rental FOR VALUES FROM ('2008-01-01') TO ('2009-01-01')");
        db.update("INSERT INTO rental VALUES (2, DATE '2008-05-05')");
        db.update("UPDATE rental SET rental_date = DATE '2008-06-06' WHERE rental_id = 1"); // moves the row

        // a row moved to another partition is a DELETE there and an INSERT here: PostgreSQL fires those triggers
        assertThat(outbox()).containsExactly("rental.Inserted 1:2007-05-05 rental", "rental.Inserted 2:2008-05-05"
                + " rental", "rental.Deleted 1:2007-05-05 rental", "rental.Inserted 1:2008-06-06 rental");
    }

    private String triggers(String... args) {
        List<String> all = new ArrayList<>(List.of("--data-source=legacy"));
        all.addAll(List.of(args));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            GatewayCli.execute(new TriggersCommand(), all, CommandBeans.given(dataSources), out);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
