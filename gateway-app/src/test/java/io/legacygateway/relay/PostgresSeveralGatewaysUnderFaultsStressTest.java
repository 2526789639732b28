package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;
import org.springframework.jdbc.core.JdbcTemplate;

@OnPostgres
class PostgresSeveralGatewaysUnderFaultsStressTest extends SeveralGatewaysUnderFaultsStressContractTest {

    @Override
    protected String gatewayUrl(String url, String mark) {
        return url + "&ApplicationName=" + mark;
    }

    @Override
    protected int endHeldSession(JdbcTemplate admin, String mark) {
        return admin.queryForList("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?"
                + " AND state = 'idle in transaction' AND state_change < now() - interval '1 second'",
                Boolean.class, mark).size();
    }
}
