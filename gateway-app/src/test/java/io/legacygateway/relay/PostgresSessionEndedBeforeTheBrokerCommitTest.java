package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;
import org.springframework.jdbc.core.JdbcTemplate;

@OnPostgres
class PostgresSessionEndedBeforeTheBrokerCommitTest extends SessionEndedBeforeTheBrokerCommitContractTest {

    @Override
    protected Object sessionId(JdbcTemplate session) {
        return session.queryForObject("SELECT pg_backend_pid()", Integer.class);
    }

    @Override
    protected void endSession(JdbcTemplate other, Object sessionId) {
        other.queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, sessionId);
    }
}
