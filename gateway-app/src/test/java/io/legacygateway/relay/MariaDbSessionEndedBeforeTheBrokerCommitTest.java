package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbSessionEndedBeforeTheBrokerCommitTest extends SessionEndedBeforeTheBrokerCommitContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB,
                MariaDbSessionEndedBeforeTheBrokerCommitTest.class);
    }

    @Override
    protected Object sessionId(JdbcTemplate session) {
        return session.queryForObject("SELECT CONNECTION_ID()", Long.class);
    }

    @Override
    protected void endSession(JdbcTemplate other, Object sessionId) {
        other.update("KILL CONNECTION ?", sessionId);
    }
}
