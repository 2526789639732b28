package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.OnMariaDb;
import org.springframework.jdbc.core.JdbcTemplate;

@OnMariaDb
class MariaDbClaimLeaseTest extends ClaimLeaseContractTest {

    @Override
    long sessionIdleLimit(JdbcTemplate session) {
        return session.queryForObject("SELECT @@session.idle_transaction_timeout", Long.class);
    }
}
