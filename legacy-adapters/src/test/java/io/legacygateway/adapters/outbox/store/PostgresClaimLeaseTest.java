package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.OnPostgres;
import org.springframework.jdbc.core.JdbcTemplate;

@OnPostgres
class PostgresClaimLeaseTest extends ClaimLeaseContractTest {

    @Override
    long sessionIdleLimit(JdbcTemplate session) {
        return session.queryForObject("SELECT CAST(setting AS INT) FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout'",
                Long.class);
    }
}
