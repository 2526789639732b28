package io.legacygateway.relay;

import java.util.List;

/**
 * What the broker did with each event of a batch.
 *
 * @param confirmed  stored by the broker (or already held, recognised by its duplicate-detection id): mark them
 *                   published
 * @param refused    refused by the broker while it took other events of the batch (an address the gateway may not send
 *                   to, that does not exist and is not created on demand, a header the client cannot send): charge
 *                   each row an attempt
 * @param deferred   not sent because an earlier event of the same aggregate was refused in this batch, or sent to an
 *                   address that is full (the broker's state, charged to no row): leave them waiting (they follow once
 *                   the refused row is published or parked, or the address has room)
 * @param duplicates those of {@code confirmed} that the broker reported it already held: it dropped them as
 *                   duplicates (see {@link DuplicateIds})
 * @param resentAfterUnknownOutcome the batch was sent again in this publish after a commit of it failed without an
 *                   answer (see {@link PublishException#outcomeUnknown()}): that commit may have stored any of the
 *                   {@code duplicates}, which it explains
 */
public record PublishResult(List<OutboundEvent> confirmed, List<Refusal> refused, List<OutboundEvent> deferred,
                            List<OutboundEvent> duplicates, boolean resentAfterUnknownOutcome) {

    public PublishResult {
        confirmed = List.copyOf(confirmed);
        refused = List.copyOf(refused);
        deferred = List.copyOf(deferred);
        duplicates = List.copyOf(duplicates);
    }

    public PublishResult(List<OutboundEvent> confirmed, List<Refusal> refused, List<OutboundEvent> deferred,
                         List<OutboundEvent> duplicates) {
        this(confirmed, refused, deferred, duplicates, false);
    }

    public PublishResult(List<OutboundEvent> confirmed, List<Refusal> refused, List<OutboundEvent> deferred) {
        this(confirmed, refused, deferred, List.of());
    }

    /** This result, of a batch sent again after a commit of it whose outcome is unknown. */
    public PublishResult afterUnknownOutcome() {
        return new PublishResult(confirmed, refused, deferred, duplicates, true);
    }

    /** An event the broker refused, with the broker's reason. */
    public record Refusal(OutboundEvent event, String reason) {
    }

    public static PublishResult allConfirmed(List<OutboundEvent> events) {
        return new PublishResult(events, List.of(), List.of());
    }
}
