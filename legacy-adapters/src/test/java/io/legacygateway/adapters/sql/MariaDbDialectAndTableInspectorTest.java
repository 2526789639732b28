package io.legacygateway.adapters.sql;

import io.legacygateway.adapters.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbDialectAndTableInspectorTest extends DialectAndTableInspectorContractTest {
}
