package io.legacygateway.relay;

import java.util.List;

/**
 * What one relay cycle did: rows claimed, published, charged a failed attempt (of which unconvertible, refused by the
 * broker, and parked as FAILED: their keys).
 */
record CycleOutcome(int claimed, int published, int failed, int unconvertible, int refused, List<String> parkedKeys) {

    /** A cycle that found no row to claim. */
    static final CycleOutcome NOTHING_CLAIMED = new CycleOutcome(0, 0, 0, 0, 0, List.of());
}
