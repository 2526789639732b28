package io.legacygateway.adapters.sql;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class H2DialectAndTableInspectorTest extends DialectAndTableInspectorContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.H2;
    }

    /** The in-memory database is this class's own; its tables live in the default schema. */
    @Override
    String storedSchema() {
        return "PUBLIC";
    }
}
