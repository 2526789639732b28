package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;
import org.springframework.jdbc.core.JdbcTemplate;

class PostgresClaimLeaseTest extends ClaimLeaseContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }

    @Override
    long sessionIdleLimit(JdbcTemplate session) {
        return session.queryForObject("SELECT CAST(setting AS INT) FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout'",
                Long.class);
    }
}
