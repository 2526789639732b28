package io.legacygateway.adapters.inbox;

import io.legacygateway.adapters.testsupport.OnH2;

@OnH2
class H2InboxStoreTest extends InboxStoreContractTest {

    /** H2's insert-unless-present cannot see the racing row: the primary key fails the copy, which is redelivered. */
    @Override
    boolean aRacingCopyFailsOnTheKey() {
        return true;
    }
}
