package io.legacygateway.adapters.outbox;

import java.time.Instant;

/**
 * What waits in one outbox, sampled with a few cheap statements (never per scrape).
 *
 * @param pending       rows not yet published (retrying rows included, FAILED rows not)
 * @param oldestPending the time (created-at, else occurred-at) of the first waiting row in outbox order; {@code null}
 *                      when none waits or the mapping has no time column
 * @param failed        rows parked as FAILED
 */
public record Backlog(long pending, Instant oldestPending, long failed) {
}
