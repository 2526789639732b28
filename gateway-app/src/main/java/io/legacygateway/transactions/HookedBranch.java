package io.legacygateway.transactions;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A branch's {@link XAResource} with hooks at the two moments a crash leaves work for recovery: before it prepares
 * (the branches enlisted before it are prepared, Narayana has written no record yet) and before it commits in phase
 * two (every branch is prepared and the record is written); and it tells when its prepare failed. Production hooks do
 * nothing at the two moments; tests halt the process there. Everything else goes to the branch as it is.
 */
public final class HookedBranch implements XAResource {

    /** What runs at those moments; each does nothing by default. */
    public interface Hooks {
        default void beforePrepare() {
        }

        default void beforeCommit() {
        }

        /** The branch's prepare failed with {@code e} (thrown on to the transaction manager afterwards). */
        default void prepareFailed(XAException e) {
        }
    }

    private final XAResource branch;
    private final Hooks hooks;

    public HookedBranch(XAResource branch, Hooks hooks) {
        this.branch = branch;
        this.hooks = hooks;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        if (!onePhase) {
            hooks.beforeCommit();
        }
        branch.commit(xid, onePhase);
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        branch.end(xid, flags);
    }

    @Override
    public void forget(Xid xid) throws XAException {
        branch.forget(xid);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return branch.getTransactionTimeout();
    }

    /** Compares the branches themselves, so Narayana can tell two branches of one resource manager. */
    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        return branch.isSameRM(other instanceof HookedBranch h ? h.branch : other);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        hooks.beforePrepare();
        try {
            return branch.prepare(xid);
        } catch (XAException e) {
            hooks.prepareFailed(e);
            throw e;
        }
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return branch.recover(flag);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        branch.rollback(xid);
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return branch.setTransactionTimeout(seconds);
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        branch.start(xid, flags);
    }
}
