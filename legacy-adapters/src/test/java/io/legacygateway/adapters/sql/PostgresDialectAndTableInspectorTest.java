package io.legacygateway.adapters.sql;

import io.legacygateway.adapters.testsupport.OnPostgres;

@OnPostgres
class PostgresDialectAndTableInspectorTest extends DialectAndTableInspectorContractTest {
}
