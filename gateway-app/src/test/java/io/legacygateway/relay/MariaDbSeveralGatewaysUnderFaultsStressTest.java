package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

@OnMariaDb
class MariaDbSeveralGatewaysUnderFaultsStressTest extends SeveralGatewaysUnderFaultsStressContractTest {

    @Override
    protected String gatewayUrl(String url, String mark) {
        return url; // the test's database is its own: its sessions are the gateways' and the test's
    }

    @Override
    protected int endHeldSession(JdbcTemplate admin, String mark) {
        List<Long> held = admin.queryForList("SELECT p.ID FROM information_schema.PROCESSLIST p"
                + " JOIN information_schema.INNODB_TRX t ON t.trx_mysql_thread_id = p.ID"
                + " WHERE p.DB = DATABASE() AND p.COMMAND = 'Sleep' AND p.TIME >= 1", Long.class);
        held.forEach(id -> admin.update("KILL CONNECTION ?", id));
        return held.size();
    }
}
