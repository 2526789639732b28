package io.legacygateway.reconciliation;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.attempts.Observation;
import io.legacygateway.config.DurationText;
import io.legacygateway.reconciliation.IntentFacts.OutboxState;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Derives an {@link IntentEvidence} record from {@link IntentFacts}, in this order:
 * <ol>
 *   <li>no intent row for a committed domain row: {@code DUAL_WRITE_GAP_OBSERVED};</li>
 *   <li>waiting and parked as FAILED, older than {@code stuckAfter}, or with {@code stuckAttempts} attempts or more:
 *       {@code STUCK_INTENT_DETECTED} (whatever else is known: it needs an operator);</li>
 *   <li>an attempt the broker answered as a duplicate of an event the relay has no record of sending
 *       ({@link Observation#DUPLICATE}): {@code UNEXPLAINED_BROKER_DUPLICATE};</li>
 *   <li>a field that cannot be established (see {@link IntentEvidence#missing()}): {@code EVIDENCE_INCOMPLETE};</li>
 *   <li>more than one attempt that may have reached the broker (confirmed, sent without a recorded answer, or a
 *       commit whose outcome is unknown): {@code DUPLICATE_DELIVERY_CANDIDATE};</li>
 *   <li>otherwise {@code DOMAIN_AND_INTENT_COMMITTED}.</li>
 * </ol>
 * Refused, deferred, failed and unsent attempts did not deliver the event and never make a duplicate.
 */
public final class IntentClassifier {

    private final Duration stuckAfter;
    private final int stuckAttempts;

    public IntentClassifier(Duration stuckAfter, int stuckAttempts) {
        this.stuckAfter = stuckAfter;
        this.stuckAttempts = stuckAttempts;
    }

    /** The evidence record of one intent, its decision taken in the order above; {@code now} dates its age. */
    public IntentEvidence classify(IntentFacts f, Instant now) {
        List<String> missing = new ArrayList<>();
        List<AttemptLog.Entry> attempts = f.attempts();
        long deliveries = attempts.stream().filter(a -> a.observation().mayHaveDelivered()).count();
        String intentId = f.outbox() == OutboxState.MISSING ? "NONE: no intent was written" : f.eventId();
        if (intentId == null) {
            missing.add("intent id: the row has no event id (row " + f.rowKey() + ")");
        }
        if (f.aggregateKey() == null) {
            missing.add("aggregate key: the row has no aggregate id");
        }
        String relayAttempt = relayAttempt(f, attempts, missing);
        String observation = observation(f, attempts, deliveries, missing);
        Duration age = age(f, now);
        String ageText = ageText(f, age, missing);
        Verdict verdict = verdict(f, age, deliveries, missing);
        return new IntentEvidence(intentId, f.aggregateKey(), domain(f), outbox(f), relayAttempt, observation, mark(f),
                ageText, verdict.decision(), verdict.risk(), f.relay(), f.rowKey(), attempts, List.copyOf(missing));
    }

    /** The decision and the risk it carries for consumers. */
    private record Verdict(ReconciliationDecision decision, String risk) {
    }

    /** The decision, in the order of the class comment; {@code missing} is complete by now. */
    private Verdict verdict(IntentFacts f, Duration age, long deliveries, List<String> missing) {
        if (f.outbox() == OutboxState.MISSING) {
            return new Verdict(ReconciliationDecision.DUAL_WRITE_GAP_OBSERVED, "Consumers never learn of this change:"
                    + " no intent exists, so nothing will publish it. Write the missing intent (or repair the capture)"
                    + " and find why it was not written.");
        }
        if (stuck(f, age)) {
            return new Verdict(ReconciliationDecision.STUCK_INTENT_DETECTED, "Consumers have not received this event"
                    + (deliveries > 0 ? " (or have: an earlier attempt may have reached the broker)" : "")
                    + "; downstream state lags until it is published. Not declared successful automatically: fix the"
                    + " cause, then retry it or resolve it by hand.");
        }
        if (f.attempts().stream().anyMatch(a -> a.observation() == Observation.DUPLICATE)) {
            return new Verdict(ReconciliationDecision.UNEXPLAINED_BROKER_DUPLICATE, "The broker dropped event "
                    + f.eventId() + " as a duplicate of a message it already held with the same id and the same"
                    + " content, and this relay has no record of sending it: consumers got that earlier message, not"
                    + " one sent for row " + f.rowKey() + ". If it came from a restored, reloaded or second outbox, or"
                    + " from a send this relay did not record (attempts pruned or not logged, an earlier version), it"
                    + " is this very event and nothing is to be done. Republish under a new event id only once it is"
                    + " established that consumers never received this occurrence: if the earlier message may have"
                    + " been this row's own, a new id makes every inbox apply it twice.");
        }
        String risk = risk(f, deliveries, missing);
        if (!missing.isEmpty()) {
            return new Verdict(ReconciliationDecision.EVIDENCE_INCOMPLETE, risk);
        }
        return new Verdict(deliveries > 1 ? ReconciliationDecision.DUPLICATE_DELIVERY_CANDIDATE
                : ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED, risk);
    }

    /** Still waiting, and parked as FAILED, older than {@code stuckAfter} or tried {@code stuckAttempts} times. */
    private boolean stuck(IntentFacts f, Duration age) {
        boolean waiting = f.outbox() == OutboxState.PENDING || f.outbox() == OutboxState.RETRYING
                || f.outbox() == OutboxState.FAILED;
        int attemptCount = Math.max(f.attemptsOnRow(), (int) f.attempts().stream()
                .filter(a -> a.observation() != Observation.DEFERRED).count());
        return waiting && (f.outbox() == OutboxState.FAILED || attemptCount >= stuckAttempts
                || (age != null && age.compareTo(stuckAfter) >= 0));
    }

    private static String domain(IntentFacts f) {
        return switch (f.domain()) {
            case COMMITTED -> "COMMITTED: the row is in " + f.domainTable();
            case NOT_FOUND -> "NOT_FOUND: no row of this aggregate in " + f.domainTable() + " (deleted since?)";
            case NOT_CHECKED -> "IMPLIED: the intent was committed in the application's own transaction (no"
                    + " domainTable configured to check the domain row)";
        };
    }

    private static String outbox(IntentFacts f) {
        return f.outbox() == OutboxState.MISSING ? "MISSING: no intent row for this domain row"
                : "COMMITTED: row " + f.rowKey();
    }

    private static String mark(IntentFacts f) {
        return switch (f.outbox()) {
            case PENDING -> "PENDING" + (f.attempts().isEmpty() ? "" : " (no committed mark yet)");
            case RETRYING -> "RETRYING after " + f.attemptsOnRow() + " failed attempt(s)"
                    + (f.lastError() == null ? "" : ": " + f.lastError());
            case FAILED -> "FAILED (parked) after " + f.attemptsOnRow() + " attempt(s)"
                    + (f.lastError() == null ? "" : ": " + f.lastError());
            case PUBLISHED -> "PUBLISHED";
            case MISSING -> "NONE: nothing to mark";
        };
    }

    /** Since the row was created (else since its first recorded attempt); {@code null} when neither is known. */
    private static Duration age(IntentFacts f, Instant now) {
        List<AttemptLog.Entry> attempts = f.attempts();
        Instant since = f.createdAt() != null ? f.createdAt() : attempts.isEmpty() ? null : attempts.get(0).at();
        return since == null ? null : Duration.between(since, now);
    }

    private static String ageText(IntentFacts f, Duration age, List<String> missing) {
        if (f.outbox() == OutboxState.MISSING) {
            return "unknown: the domain table's time is not read";
        }
        if (age == null) {
            missing.add("age: the outbox has no time column and no attempt is recorded");
            return null;
        }
        return DurationText.format(age.isNegative() ? Duration.ZERO : age.truncatedTo(ChronoUnit.SECONDS));
    }

    private static String relayAttempt(IntentFacts f, List<AttemptLog.Entry> attempts, List<String> missing) {
        if (f.outbox() == OutboxState.MISSING) {
            return "0: no intent to attempt";
        }
        if (!f.attemptLogOn()) {
            return f.attemptsOnRow() + " failed attempt(s) counted on the row (attemptLog off: attempts not recorded)";
        }
        if (attempts.isEmpty()) {
            if (f.outbox() == OutboxState.PUBLISHED) {
                missing.add("relay attempt: the attempt log has no record of this publication (pruned, or published"
                        + " before the log existed)");
                return null;
            }
            return f.attemptsOnRow() == 0 ? "0: not attempted yet"
                    : f.attemptsOnRow() + " failed attempt(s) counted on the row, none in the attempt log";
        }
        List<String> each = new ArrayList<>();
        for (int i = 0; i < attempts.size(); i++) {
            AttemptLog.Entry a = attempts.get(i);
            each.add("#" + (i + 1) + " " + a.observation() + "/" + a.markState() + " at " + a.at() + " by "
                    + a.instance());
        }
        return attempts.size() + ": " + String.join("; ", each);
    }

    private static String observation(IntentFacts f, List<AttemptLog.Entry> attempts, long deliveries,
                                      List<String> missing) {
        if (f.outbox() == OutboxState.MISSING) {
            return "NONE: nothing was published";
        }
        if (attempts.isEmpty()) {
            if (f.outbox() == OutboxState.PUBLISHED) {
                missing.add("publish observation: no broker answer recorded");
                return null;
            }
            return f.attemptLogOn() ? "NONE: not sent yet" : "NOT_RECORDED (attemptLog off)";
        }
        long confirmed = attempts.stream().filter(a -> a.observation() == Observation.CONFIRMED).count();
        long unanswered = deliveries - confirmed;
        long duplicates = attempts.stream().filter(a -> a.observation() == Observation.DUPLICATE).count();
        AttemptLog.Entry last = attempts.get(attempts.size() - 1);
        String text = "CONFIRMED x" + confirmed + (unanswered > 0 ? ", SENT without a recorded answer or with a commit"
                + " outcome unknown x" + unanswered : "") + (duplicates > 0 ? ", DUPLICATE (the broker already held it) x" + duplicates : "") + "; last "
                + last.observation() + (last.detail() == null ? "" : " (" + last.detail() + ")");
        return deliveries > 1 ? text + ": the same event id went to the broker " + deliveries + " times" : text;
    }

    private static String risk(IntentFacts f, long deliveries, List<String> missing) {
        if (!missing.isEmpty()) {
            return null; // not established: how often consumers got it is unknown
        }
        if (deliveries > 1) {
            return "Event " + f.eventId() + " may reach consumers up to " + deliveries + " times: a consumer without"
                    + " an idempotent inbox applies it twice (the broker drops a copy only while the id is in its"
                    + " duplicate-id cache).";
        }
        if (f.outbox() == OutboxState.PUBLISHED && !f.attempts().isEmpty()
                && f.attempts().get(f.attempts().size() - 1).observation() == Observation.FILTERED) {
            return "Not published, on purpose: a step of the relay dropped it ("
                    + f.attempts().get(f.attempts().size() - 1).detail() + ") and marked the row done; consumers never"
                    + " receive it" + (deliveries > 0 ? " from this attempt (an earlier one may have reached them)" : "")
                    + ".";
        }
        if (f.outbox() == OutboxState.PUBLISHED) {
            return "Published once as far as the attempt log shows; broker redelivery can still hand it to a consumer"
                    + " twice, so consumers must be idempotent. Nothing here proves that consumers applied it.";
        }
        return "Not published yet: consumers receive it when the relay publishes it; if it stays, it becomes a stuck"
                + " intent.";
    }
}
