package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

/** On MariaDb, wakeUp NONE. */
@OnMariaDb
class MariaDbSmallPoolStarvesNoRelayTest extends SmallPoolStarvesNoRelayTest {

    @Override
    String wakeUp() {
        return "NONE";
    }
}
