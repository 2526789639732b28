package io.legacygateway.adapters.sql;

import io.legacygateway.adapters.testsupport.OnH2;

@OnH2
class H2DialectAndTableInspectorTest extends DialectAndTableInspectorContractTest {

    /** The in-memory database is this class's own; its tables live in the default schema. */
    @Override
    String storedSchema() {
        return "PUBLIC";
    }
}
