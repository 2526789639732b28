package io.legacygateway.deadletter;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * What a redelivery did, or in a dry run would do: the counts, the warnings the operator must read, and one item per
 * selected dead letter. A dry run reports exactly the outcome each message would have (apart from messages that are
 * moved or deleted by someone else in between) and changes nothing.
 *
 * @param selected    dead letters the selection matched
 * @param moved       redelivered (dry run: would be)
 * @param released    inbox rows deleted before their redelivery (policy RELEASE; dry run: would be)
 * @param error       why the run stopped early, {@code null} when it ran to the end
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RedeliveryReport(boolean dryRun, String selection, InboxPolicy inboxPolicy, boolean force,
                               boolean discardApplied, int ratePerSecond, Instant startedAt, Instant finishedAt,
                               int selected, int moved, int skippedApplied, int discarded, int released, int refused,
                               int gone, int failed, int notAttempted, List<String> warnings, String error,
                               List<Item> items) {

    /**
     * One selected dead letter.
     *
     * @param target        {@code address::queue} it is (or would be) sent to
     * @param inboxReleased whether its inbox row was (dry run: would be) deleted first
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Item(String messageId, String eventId, String queue, String target, InboxStatus inbox,
                       RedeliveryOutcome outcome, boolean inboxReleased, String detail) {
    }
}
