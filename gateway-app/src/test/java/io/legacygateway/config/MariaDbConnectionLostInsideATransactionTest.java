package io.legacygateway.config;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbConnectionLostInsideATransactionTest extends ConnectionLostInsideATransactionContractTest {
}
