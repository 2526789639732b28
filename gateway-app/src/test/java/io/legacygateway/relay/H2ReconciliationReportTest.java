package io.legacygateway.relay;

import io.legacygateway.testsupport.OnH2;

@OnH2
class H2ReconciliationReportTest extends ReconciliationReportContractTest {
}
