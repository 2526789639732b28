package io.legacygateway.adapters.sql;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbDialectAndTableInspectorTest extends DialectAndTableInspectorContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
