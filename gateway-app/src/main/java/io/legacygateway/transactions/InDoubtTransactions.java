package io.legacygateway.transactions;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The global transactions of this gateway's node that are not complete, as the reconciliation report lists them: the
 * records in Narayana's object store (every branch prepared, commit decided) and the branches the databases and the
 * broker report prepared for this node, by global id. A snapshot: a transaction committing at that instant can be
 * listed, and recovery can complete a listed one a moment later.
 *
 * @param node         this gateway's transaction node ({@code gateway.transactions.node-id})
 * @param transactions each incomplete transaction, oldest first
 * @param unscanned    resource managers whose prepared branches could not be listed, with the reason
 */
public record InDoubtTransactions(String node, List<InDoubtTransaction> transactions, List<String> unscanned) {

    /**
     * @param globalId Narayana's id of the transaction (the Uid in every branch's Xid)
     * @param begunAt  when it began, from the id; {@code null} when unknown
     * @param recorded whether the object store holds its record: commit was decided, recovery commits what is still
     *                 prepared; without it no decision was written (presumed abort), recovery rolls the branches back
     * @param prepared the resource managers that report a prepared branch of it ({@code datasource 'legacy'},
     *                 {@code the broker})
     */
    public record InDoubtTransaction(String globalId, Instant begunAt, boolean recorded, List<String> prepared) {

        /** What recovery will do with it, and what is left to the operator. */
        public String action() {
            if (!recorded) {
                return "no commit decision was recorded (the process stopped before every branch prepared):"
                        + " recovery rolls these branches back at its next pass (presumed abort), and the relay"
                        + " publishes the rows again. Nothing to do unless it stays listed: then the node or the"
                        + " object store is not this gateway's";
            }
            if (prepared.isEmpty()) {
                return "commit decided; no reachable resource manager reports a branch of it prepared: it is"
                        + " committing now, or its branch is on a resource manager listed as unscanned (bring that"
                        + " back); recovery removes the record once every branch committed";
            }
            return "commit decided: recovery commits the prepared branches at its next pass; if it stays listed,"
                    + " the resource manager of a branch is unreachable: bring it back. Never roll a branch back by"
                    + " hand: the others committed";
        }

        private String render(Instant now) {
            String age = begunAt == null ? "unknown age"
                    : "begun " + begunAt + " (" + Duration.between(begunAt, now).toSeconds() + " s ago)";
            return "- " + globalId + ", " + age + ", " + (recorded ? "recorded in the object store" : "no record")
                    + ", prepared on " + (prepared.isEmpty() ? "none" : String.join(", ", prepared)) + "\n  "
                    + action();
        }
    }

    /** The section of the report's text. */
    public String render(Instant now) {
        StringBuilder out = new StringBuilder("XA transactions in doubt on node '").append(node).append("': ")
                .append(transactions.size()).append('\n');
        transactions.forEach(t -> out.append(t.render(now)).append('\n'));
        unscanned.forEach(u -> out.append("- not scanned: ").append(u).append('\n'));
        return out.toString();
    }

    /** Whether a transaction began more than {@code after} before {@code now} (those of unknown age count). */
    public boolean anyOlderThan(Duration after, Instant now) {
        return transactions.stream().anyMatch(t -> t.begunAt() == null || t.begunAt().plus(after).isBefore(now));
    }
}
