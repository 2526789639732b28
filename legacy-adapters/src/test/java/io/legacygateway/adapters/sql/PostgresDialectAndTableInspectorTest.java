package io.legacygateway.adapters.sql;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class PostgresDialectAndTableInspectorTest extends DialectAndTableInspectorContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }
}
