package io.legacygateway.config;

import io.legacygateway.testsupport.TestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;

class MariaDbConnectionLostInsideATransactionTest extends ConnectionLostInsideATransactionContractTest {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }

    @Override
    protected String sessionIdQuery() {
        return "SELECT CONNECTION_ID()";
    }

    @Override
    protected void endSession(JdbcTemplate other, long id) {
        other.execute("KILL CONNECTION " + id); // KILL takes no bind; the id is the server's own number
    }
}
