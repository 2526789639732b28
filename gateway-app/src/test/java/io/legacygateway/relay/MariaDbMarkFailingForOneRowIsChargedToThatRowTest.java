package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbMarkFailingForOneRowIsChargedToThatRowTest extends MarkFailingForOneRowIsChargedToThatRowContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB,
                MariaDbMarkFailingForOneRowIsChargedToThatRowTest.class);
    }

    @Override
    protected void createRefusingTrigger(String event, String when) {
        rows.jdbc().execute("CREATE TRIGGER refuse_mark BEFORE " + event + " ON outbox FOR EACH ROW BEGIN IF " + when
                + " THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '" + REFUSAL + "'; END IF; END");
    }

    @Override
    protected void dropRefusingTrigger() {
        rows.jdbc().execute("DROP TRIGGER IF EXISTS refuse_mark");
    }

    @Override
    protected String createFlagTable() {
        return "CREATE TABLE " + FLAG_TABLE + " (seq BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                + " id VARCHAR(64) NOT NULL, aggregate_type VARCHAR(255) NOT NULL, aggregate_id VARCHAR(255) NOT NULL,"
                + " event_type VARCHAR(255) NOT NULL, payload LONGTEXT NOT NULL, status CHAR(1) NOT NULL,"
                + " locked_by VARCHAR(8)) ENGINE=InnoDB";
    }
}
