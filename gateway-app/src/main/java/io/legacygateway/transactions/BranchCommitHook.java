package io.legacygateway.transactions;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A branch's {@link XAResource} that runs a hook before it commits in phase two, when every branch of the transaction
 * is prepared and Narayana has written its record: the window that recovery must close after a crash. Production
 * hooks do nothing; tests halt the process there. Everything else goes to the branch as it is.
 */
public final class BranchCommitHook implements XAResource {

    private final XAResource branch;
    private final Runnable beforeCommit;

    public BranchCommitHook(XAResource branch, Runnable beforeCommit) {
        this.branch = branch;
        this.beforeCommit = beforeCommit;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        if (!onePhase) {
            beforeCommit.run();
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
        return branch.isSameRM(other instanceof BranchCommitHook h ? h.branch : other);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        return branch.prepare(xid);
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
