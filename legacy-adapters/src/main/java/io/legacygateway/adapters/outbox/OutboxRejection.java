package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.outbox.mapping.OutboxRow;

/** A claimed row that cannot be published as it stands, with the reason recorded on the row. */
public record OutboxRejection(OutboxRow row, String reason) {
}
