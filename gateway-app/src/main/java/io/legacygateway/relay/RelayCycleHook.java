package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.OutboxRow;
import java.util.List;

/**
 * Observes a relay cycle at the point where the broker has confirmed a batch and the rows are not yet marked: the
 * window in which a crash makes the relay publish again. Production has none; tests register one as a Spring bean to
 * make that window deterministic (throwing from it rolls the marks back, as a crash would).
 */
public interface RelayCycleHook {

    void afterPublishBeforeMark(String relay, List<OutboxRow> published);
}
