package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresMarkFailingForOneRowIsChargedToThatRowTest extends MarkFailingForOneRowIsChargedToThatRowContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES,
                PostgresMarkFailingForOneRowIsChargedToThatRowTest.class);
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
