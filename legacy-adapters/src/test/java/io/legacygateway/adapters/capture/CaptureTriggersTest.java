package io.legacygateway.adapters.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.capture.CaptureTriggers.Operation;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.sql.Types;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The capture DDL renders for every dialect from its resource file, with no placeholder left and no value outside a
 * validated literal. (Behaviour is tested against the real PostgreSQL, MariaDB and H2 in gateway-app; Oracle and SQL
 * Server only render here.)
 */
class CaptureTriggersTest {

    private static TableInspector.Table table(String name, List<String> key, String... columns) {
        Map<String, TableInspector.Column> c = new LinkedHashMap<>();
        for (String column : columns) {
            String[] p = column.split(":");
            c.put(p[0], new TableInspector.Column(p[0], Integer.parseInt(p[1]), p[2], true, null));
        }
        return new TableInspector.Table(new TableName(null, name), c, key);
    }

    static final TableInspector.Table CUSTOMERS = table("customers", List.of("id"), "id:" + Types.BIGINT + ":bigint",
            "name:" + Types.VARCHAR + ":varchar", "avatar:" + Types.BLOB + ":blob");
    static final TableInspector.Table OUTBOX = table("outbox", List.of("seq"), "seq:" + Types.BIGINT + ":bigint",
            "aggregate_type:12:varchar", "aggregate_id:12:varchar", "event_type:12:varchar", "payload:12:text");
    static final CaptureTriggers.Options OPTIONS = new CaptureTriggers.Options("Customer", "Customer",
            EnumSet.allOf(Operation.class));

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void everyDialectRendersInstallAndRemove(Dialect d) {
        CaptureTriggers.Ddl ddl = CaptureTriggers.generate(d, CUSTOMERS, OUTBOX, OPTIONS);

        assertThat(ddl.install()).isNotEmpty().allSatisfy(sql -> assertThat(sql).doesNotContain("{"));
        assertThat(ddl.remove()).anySatisfy(sql -> assertThat(sql).containsIgnoringCase("DROP TRIGGER"))
                .allSatisfy(sql -> assertThat(sql).doesNotContain("{"));
        String all = String.join("\n", ddl.install());
        assertThat(all).contains("gw_capture_customers").contains("Customer").containsIgnoringCase("CREATE");
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void aTableWithoutPrimaryKeyOrAnUnsafeValueIsRefused(Dialect d) {
        assertThatThrownBy(() -> CaptureTriggers.generate(d, table("visits", List.of(), "at:93:timestamp"), OUTBOX,
                OPTIONS)).hasMessageContaining("has no primary key");
        assertThatThrownBy(() -> CaptureTriggers.generate(d, CUSTOMERS, OUTBOX,
                new CaptureTriggers.Options("x'--", "Customer", EnumSet.allOf(Operation.class))))
                .hasMessageContaining("--event-type-prefix").hasMessageContaining("cannot bind values");
        assertThatThrownBy(() -> CaptureTriggers.generate(d, CUSTOMERS, table("outbox", List.of("seq"), "seq:-5:bigint"),
                OPTIONS)).hasMessageContaining("has no column aggregate_type");
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"POSTGRESQL", "MARIADB"})
    void theSnapshotBindsItsValuesAndReadsEveryRowInKeyOrder(Dialect d) {
        CaptureTriggers.Snapshot snapshot = CaptureTriggers.generate(d, CUSTOMERS, OUTBOX, OPTIONS).snapshot();

        assertThat(snapshot.sql()).doesNotContain("{").doesNotContain("Customer").containsIgnoringCase("INSERT INTO")
                .contains("'SNAPSHOT'").containsIgnoringCase("ORDER BY");
        assertThat(snapshot.binds()).containsExactly("Customer", "CustomerSnapshot", "customers");
    }

    @ParameterizedTest
    @EnumSource(value = Dialect.class, names = {"H2", "ORACLE", "SQLSERVER"})
    void noSnapshotWhereWritersCannotBeKeptOut(Dialect d) {
        assertThat(CaptureTriggers.generate(d, CUSTOMERS, OUTBOX, OPTIONS).snapshot()).isNull();
    }

    @Test
    void aDefinerIsWrittenAsTheDatabaseNamesTheAccountTheTriggersRunAs() {
        CaptureTriggers.Options mariaDb = new CaptureTriggers.Options("Customer", "Customer",
                EnumSet.allOf(Operation.class), CaptureTriggers.Account.parse("'gw_capture'@'localhost'"));
        assertThat(CaptureTriggers.generate(Dialect.MARIADB, CUSTOMERS, OUTBOX, mariaDb).install())
                .filteredOn(sql -> sql.startsWith("CREATE")).hasSize(3)
                .allSatisfy(sql -> assertThat(sql).startsWith("CREATE DEFINER = 'gw_capture'@'localhost' TRIGGER"));
        CaptureTriggers.Options postgres = new CaptureTriggers.Options("Customer", "Customer",
                EnumSet.allOf(Operation.class), CaptureTriggers.Account.parse("gw_capture"));
        assertThat(CaptureTriggers.generate(Dialect.POSTGRESQL, CUSTOMERS, OUTBOX, postgres).install())
                .contains("ALTER FUNCTION \"gw_capture_customers\"() OWNER TO \"gw_capture\"");

        assertThatThrownBy(() -> CaptureTriggers.generate(Dialect.MARIADB, CUSTOMERS, OUTBOX, postgres))
                .hasMessageContaining("must be an account user@host");
        assertThatThrownBy(() -> CaptureTriggers.generate(Dialect.POSTGRESQL, CUSTOMERS, OUTBOX, mariaDb))
                .hasMessageContaining("must be a role");
        assertThatThrownBy(() -> CaptureTriggers.generate(Dialect.H2, CUSTOMERS, OUTBOX, postgres))
                .hasMessageContaining("not supported on h2");
        assertThatThrownBy(() -> CaptureTriggers.Account.parse("x'y@localhost")).hasMessageContaining("--definer");
        assertThat(CaptureTriggers.Account.parse("gw@%").grantee()).isEqualTo("'gw'@'%'");
    }
}
