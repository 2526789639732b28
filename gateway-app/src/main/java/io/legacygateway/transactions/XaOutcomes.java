package io.legacygateway.transactions;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.transaction.HeuristicCompletionException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.UnexpectedRollbackException;

/**
 * Narayana's transaction manager as Spring sees it, counting how each global transaction ended
 * ({@code gateway_xa_transactions_total{outcome}}), as its caller learnt it:
 *
 * <ul>
 *   <li>{@code committed}: commit returned (a branch whose phase-two commit failed is left to recovery, which
 *       commits it later: the gauge {@code gateway_xa_in_doubt} shows it meanwhile);</li>
 *   <li>{@code rolled_back}: rolled back, asked for or because a branch could not prepare;</li>
 *   <li>{@code heuristic}: a resource manager decided on its own (heuristic commit, rollback, mixed or hazard): the
 *       branches may disagree and an operator must look (see the reconciliation report);</li>
 *   <li>{@code unknown}: the manager failed without saying how the transaction ended; recovery completes it.</li>
 * </ul>
 * Counts since this start; a heuristic is also kept in {@link #heuristics()} for the readiness detail.
 */
final class XaOutcomes implements PlatformTransactionManager {

    /** How a global transaction ended, as the meter's {@code outcome} tag. */
    enum Outcome {
        COMMITTED, ROLLED_BACK, HEURISTIC, UNKNOWN;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final PlatformTransactionManager manager;
    private final Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);
    private final AtomicLong heuristics = new AtomicLong();

    /** @param meters where the counters go; {@code null}: counted for {@link #heuristics()} only */
    XaOutcomes(PlatformTransactionManager manager, MeterRegistry meters) {
        this.manager = manager;
        if (meters != null) {
            for (Outcome o : Outcome.values()) {
                counters.put(o, Counter.builder("gateway.xa.transactions").tag("outcome", o.tag())
                        .description("global (XA) transactions of the relays and inbox consumers by outcome: committed, rolled_back,"
                                + " heuristic (an operator must look), unknown (recovery completes it)")
                        .register(meters));
            }
        }
    }

    /** Heuristic outcomes since this start. */
    long heuristics() {
        return heuristics.get();
    }

    @Override
    public TransactionStatus getTransaction(TransactionDefinition definition) throws TransactionException {
        return manager.getTransaction(definition);
    }

    @Override
    public void commit(TransactionStatus status) throws TransactionException {
        // a commit of a rollback-only transaction rolls it back and returns (or throws UnexpectedRollback)
        boolean rollbackOnly = status.isRollbackOnly();
        try {
            manager.commit(status);
            count(rollbackOnly ? Outcome.ROLLED_BACK : Outcome.COMMITTED);
        } catch (HeuristicCompletionException e) {
            count(Outcome.HEURISTIC);
            throw e;
        } catch (UnexpectedRollbackException e) {
            count(Outcome.ROLLED_BACK);
            throw e;
        } catch (RuntimeException e) {
            count(Outcome.UNKNOWN);
            throw e;
        }
    }

    @Override
    public void rollback(TransactionStatus status) throws TransactionException {
        try {
            manager.rollback(status);
            count(Outcome.ROLLED_BACK);
        } catch (RuntimeException e) {
            count(Outcome.UNKNOWN);
            throw e;
        }
    }

    private void count(Outcome outcome) {
        if (outcome == Outcome.HEURISTIC) {
            heuristics.incrementAndGet();
        }
        Counter c = counters.get(outcome);
        if (c != null) {
            c.increment();
        }
    }
}
