package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;
import org.springframework.jdbc.core.JdbcTemplate;

class MariaDbClaimLeaseTest extends ClaimLeaseContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }

    @Override
    long sessionIdleLimit(JdbcTemplate session) {
        return session.queryForObject("SELECT @@session.idle_transaction_timeout", Long.class);
    }
}
