package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

/** On Postgres, wakeUp NOTIFY. */
@OnPostgres
class PostgresSmallPoolStarvesNoRelayTest extends SmallPoolStarvesNoRelayTest {

    @Override
    String wakeUp() {
        return "NOTIFY";
    }
}
