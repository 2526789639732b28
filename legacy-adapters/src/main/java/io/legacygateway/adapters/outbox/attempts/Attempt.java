package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.sql.SqlLists;

/** One row's attempt, to record before the batch is sent. */
public record Attempt(OutboxRow row, Observation observation, String detail) {

    /** How the report names an aggregate: {@code type:id}. */
    public static String aggregateKey(OutboxRow row) {
        if (row.aggregateId() == null) {
            return null;
        }
        return SqlLists.truncate((row.aggregateType() == null ? "" : row.aggregateType() + ":") + row.aggregateId(),
                600);
    }
}
