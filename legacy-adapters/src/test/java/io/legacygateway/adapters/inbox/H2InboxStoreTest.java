package io.legacygateway.adapters.inbox;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class H2InboxStoreTest extends InboxStoreContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.H2;
    }

    /** H2's insert-unless-present cannot see the racing row: the primary key fails the copy, which is redelivered. */
    @Override
    boolean aRacingCopyFailsOnTheKey() {
        return true;
    }
}
