package io.legacygateway.relay;

import java.util.List;
import java.util.Map;

/**
 * What one relay cycle did: rows claimed, published, charged a failed attempt (of which unconvertible, refused by the
 * broker, and parked as FAILED: their keys), and dropped by a step (by reason).
 */
record CycleOutcome(int claimed, int published, int failed, int unconvertible, int refused, List<String> parkedKeys,
                    Map<String, Integer> droppedBy) {

    /** A cycle that found no row to claim. */
    static final CycleOutcome NOTHING_CLAIMED = new CycleOutcome(0, 0, 0, 0, 0, List.of(), Map.of());

    /** Rows a step dropped: marked done, not sent. */
    int dropped() {
        int n = 0;
        for (int c : droppedBy.values()) {
            n += c;
        }
        return n;
    }
}
