package io.legacygateway.relay;

import io.legacygateway.testsupport.TestDatabase;

class MariaDbGatewayFrozenBeforeItsBrokerCommitTest extends GatewayFrozenBeforeItsBrokerCommitContractTest {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
