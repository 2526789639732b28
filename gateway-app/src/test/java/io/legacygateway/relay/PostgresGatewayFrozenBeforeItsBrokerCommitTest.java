package io.legacygateway.relay;

import io.legacygateway.testsupport.TestDatabase;

class PostgresGatewayFrozenBeforeItsBrokerCommitTest extends GatewayFrozenBeforeItsBrokerCommitContractTest {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
