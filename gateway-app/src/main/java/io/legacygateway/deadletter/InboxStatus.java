package io.legacygateway.deadletter;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A dead letter's event in its consumer's inbox.
 *
 * @param state      applied, not applied, or why it cannot be known
 * @param consumer   the inbox consumer ({@code gw_dlq_consumer}, else the only inbox consumer of the original queue)
 * @param dataSource the consumer's datasource (where its inbox table is)
 * @param detail     why the state is {@link InboxState#UNAVAILABLE}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InboxStatus(InboxState state, String consumer, String dataSource, String detail) {

    public boolean applied() {
        return state == InboxState.APPLIED;
    }
}
