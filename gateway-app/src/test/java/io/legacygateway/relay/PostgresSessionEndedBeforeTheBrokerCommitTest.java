package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresSessionEndedBeforeTheBrokerCommitTest extends SessionEndedBeforeTheBrokerCommitContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES,
                PostgresSessionEndedBeforeTheBrokerCommitTest.class);
    }

    @Override
    protected Object sessionId(JdbcTemplate session) {
        return session.queryForObject("SELECT pg_backend_pid()", Integer.class);
    }

    @Override
    protected void endSession(JdbcTemplate other, Object sessionId) {
        other.queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, sessionId);
    }
}
