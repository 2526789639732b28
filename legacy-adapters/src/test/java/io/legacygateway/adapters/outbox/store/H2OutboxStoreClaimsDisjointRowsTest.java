package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.testsupport.OnH2;

@OnH2
class H2OutboxStoreClaimsDisjointRowsTest extends OutboxStoreClaimsDisjointRowsContractTest {

    /**
     * H2 2.3.232: a {@code FOR UPDATE SKIP LOCKED} read through an index that leads with the status (the default
     * DDL's {@code ix_outbox_claim (status, seq)}) returns no row at all while another transaction holds some of
     * them; through the primary key (TIMESTAMP, DELETE) it skips only the held ones. Safe (no row twice), but a second
     * relay on H2 claims nothing meanwhile. H2 is the demo's database.
     */
    @Override
    boolean skipsOnlyTheHeldRows(MarkMode mode) {
        return mode != MarkMode.STATUS;
    }
}
