package io.legacygateway.inbox;

import io.legacygateway.adapters.testsupport.DatabaseServers;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TcpProxy;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresTargetDatabaseDownTest extends TargetDatabaseDownTest {

    private static final TcpProxy PROXY = new TcpProxy("127.0.0.1", DatabaseServers.postgres().port()).start();

    @DynamicPropertySource
    static void targetDatabaseThroughProxyAndBroker(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.POSTGRES, PostgresTargetDatabaseDownTest.class,
                url -> url.replace(DatabaseServers.postgres().address(), "127.0.0.1:" + PROXY.port()));
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
        registry.add("gateway.datasources.target.connect-timeout", () -> "1s");
        StandaloneBroker.register(registry);
    }

    @Override
    protected TcpProxy proxy() {
        return PROXY;
    }

    @Override
    protected String directUrl() {
        return LegacyDatabases.directUrl("target", TestDatabase.POSTGRES, PostgresTargetDatabaseDownTest.class);
    }
}
