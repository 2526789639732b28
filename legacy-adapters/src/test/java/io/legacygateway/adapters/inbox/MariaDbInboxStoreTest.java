package io.legacygateway.adapters.inbox;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbInboxStoreTest extends InboxStoreContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
