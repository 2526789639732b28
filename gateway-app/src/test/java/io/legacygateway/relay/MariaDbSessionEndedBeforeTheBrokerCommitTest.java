package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;
import org.springframework.jdbc.core.JdbcTemplate;

@OnMariaDb
class MariaDbSessionEndedBeforeTheBrokerCommitTest extends SessionEndedBeforeTheBrokerCommitContractTest {

    @Override
    protected Object sessionId(JdbcTemplate session) {
        return session.queryForObject("SELECT CONNECTION_ID()", Long.class);
    }

    @Override
    protected void endSession(JdbcTemplate other, Object sessionId) {
        other.update("KILL CONNECTION ?", sessionId);
    }
}
