package io.legacygateway.deadletter;

import java.util.List;

/**
 * One page of the dead letters a filter selects, in queue order (queues by name).
 *
 * @param total     how many the filter selects (among those examined)
 * @param truncated queues of which only the first {@code gateway.dead-letters.browse-limit} messages were examined
 */
public record DeadLetterPage(int total, int offset, int limit, List<String> truncated, List<DeadLetter> messages) {
}
