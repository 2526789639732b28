package io.legacygateway.config;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresConnectionLostInsideATransactionTest extends ConnectionLostInsideATransactionContractTest {
}
