package io.legacygateway.relay;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresMarkFailingForOneRowIsChargedToThatRowTest extends MarkFailingForOneRowIsChargedToThatRowContractTest {

    private static final String ROLE = "gw_marker_" + UUID.randomUUID().toString().substring(0, 8);

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        Class<?> test = PostgresMarkFailingForOneRowIsChargedToThatRowTest.class;
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES, test);
        String url = LegacyDatabases.directUrl("legacy", TestDatabase.POSTGRES, test);
        DriverManagerDataSource admin = new DriverManagerDataSource(url, "postgres", "");
        SchemaScripts.apply(admin, Dialect.POSTGRESQL, "outbox.sql");
        JdbcTemplate jdbc = new JdbcTemplate(admin);
        jdbc.execute("CREATE ROLE " + ROLE + " LOGIN");
        jdbc.execute("GRANT USAGE ON SCHEMA " + url.substring(url.indexOf("currentSchema=") + 14) + " TO " + ROLE);
        jdbc.execute("GRANT SELECT, UPDATE ON outbox TO " + ROLE);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            jdbc.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + ROLE + "'");
            jdbc.execute("DROP OWNED BY " + ROLE);
            jdbc.execute("DROP ROLE IF EXISTS " + ROLE);
        }));
        registry.add("gateway.datasources.restricted.url", () -> url);
        registry.add("gateway.datasources.restricted.username", () -> ROLE);
        registry.add("gateway.datasources.restricted.password", () -> "");
        registry.add("gateway.datasources.restricted.maximum-pool-size", () -> "2");
    }

    @Override
    protected void createRefusingTrigger(String event, String when) {
        // COALESCE: a BEFORE DELETE trigger returning NULL (NEW) would skip the delete silently
        rows.jdbc().execute("CREATE OR REPLACE FUNCTION refuse_mark() RETURNS trigger AS $$ BEGIN IF " + when
                + " THEN RAISE EXCEPTION '" + REFUSAL + "'; END IF; RETURN COALESCE(NEW, OLD); END $$"
                + " LANGUAGE plpgsql");
        rows.jdbc().execute("CREATE TRIGGER refuse_mark BEFORE " + event + " ON outbox FOR EACH ROW"
                + " EXECUTE FUNCTION refuse_mark()");
    }

    @Override
    protected void dropRefusingTrigger() {
        rows.jdbc().execute("DROP TRIGGER IF EXISTS refuse_mark ON outbox");
    }

    @Override
    protected String createFlagTable() {
        return "CREATE TABLE " + FLAG_TABLE + " (seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                + " id VARCHAR(64) NOT NULL, aggregate_type VARCHAR(255) NOT NULL, aggregate_id VARCHAR(255) NOT NULL,"
                + " event_type VARCHAR(255) NOT NULL, payload TEXT NOT NULL, status CHAR(1) NOT NULL,"
                + " locked_by VARCHAR(8))";
    }
}
