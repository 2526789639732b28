package io.legacygateway.deadletter;

import java.util.List;

/**
 * The dead-letter queues and their messages grouped by reason and type.
 *
 * @param address   the dead-letter address
 * @param queues    every queue on it, with its depth
 * @param groups    the dead letters examined, grouped
 * @param examined  how many dead letters the groups cover
 * @param truncated queues of which only the first {@code gateway.dead-letters.browse-limit} messages were examined
 */
public record DeadLetterOverview(String address, List<DeadLetterQueue> queues, List<DeadLetterGroup> groups,
                                 int examined, List<String> truncated) {
}
