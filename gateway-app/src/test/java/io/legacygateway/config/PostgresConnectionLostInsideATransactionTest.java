package io.legacygateway.config;

import io.legacygateway.testsupport.TestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;

class PostgresConnectionLostInsideATransactionTest extends ConnectionLostInsideATransactionContractTest {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }

    @Override
    protected String sessionIdQuery() {
        return "SELECT pg_backend_pid()";
    }

    @Override
    protected void endSession(JdbcTemplate other, long id) {
        other.queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, (int) id);
    }
}
