package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;
import org.junit.jupiter.api.Tag;

/**
 * In {@code -Plong-runs} only: the default run's budget takes one such test of two gateway processes (PostgreSQL's);
 * MariaDB's lease and fence are in the default run ({@code MariaDbClaimLeaseTest},
 * {@code MariaDbSessionEndedBeforeTheBrokerCommitTest}).
 */
@Tag("stress")
@OnMariaDb
class MariaDbGatewayFrozenBeforeItsBrokerCommitTest extends GatewayFrozenBeforeItsBrokerCommitContractTest {
}
