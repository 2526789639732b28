package io.legacygateway.transactions;

import com.arjuna.ats.arjuna.common.CoordinatorEnvironmentBean;
import com.arjuna.ats.arjuna.common.CoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.CoreEnvironmentBeanException;
import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.RecoveryEnvironmentBean;
import com.arjuna.ats.arjuna.common.Uid;
import com.arjuna.ats.arjuna.exceptions.ObjectStoreException;
import com.arjuna.ats.arjuna.objectstore.StoreManager;
import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import com.arjuna.ats.arjuna.state.InputObjectState;
import com.arjuna.ats.internal.arjuna.common.UidHelper;
import com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule;
import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionManagerImple;
import com.arjuna.ats.internal.jta.transaction.arjunacore.UserTransactionImple;
import com.arjuna.ats.jta.common.JTAEnvironmentBean;
import com.arjuna.ats.jta.xa.XATxConverter;
import com.arjuna.ats.jta.xa.XidImple;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.Xid;

/**
 * Every call into Narayana: its environment beans (set once per JVM before its first transaction), its transaction
 * manager, periodic recovery and the recovery resources. A class of its own so that {@link XaTransactions}, a bean of
 * every gateway, names no Narayana type and the JVM loads none of Narayana until a relay starts XA (checking a class
 * loads the types its methods catch and the interfaces they pass values as).
 */
final class Narayana {

    /** The object store's type of a top-level transaction's record (AtomicAction's), written once all prepared. */
    private static final String TRANSACTION_RECORD = "/StateManager/BasicAction/TwoPhaseCoordinator/AtomicAction";

    private static RecoveryManager recovery;
    /** What the first start in this JVM configured: Narayana's environment beans cannot change afterwards. */
    private static String configured;

    private Narayana() {
    }

    /**
     * Points the object stores at {@code store}, names the node, and sets periodic recovery (no listener socket).
     *
     * @throws IllegalStateException when this JVM already runs Narayana with another store or node
     */
    static synchronized void configure(Path store, String nodeId, int recoverySeconds) {
        String wanted = store + " " + nodeId;
        if (configured != null) {
            if (!configured.equals(wanted)) {
                throw new IllegalStateException(XaTransactions.LOG_DIR + " and " + XaTransactions.NODE_ID
                        + ": Narayana already runs in this JVM with " + configured + "; one object store and node per"
                        + " JVM");
            }
            return;
        }
        try {
            Files.createDirectories(store);
        } catch (IOException e) {
            throw new UncheckedIOException(XaTransactions.LOG_DIR + ": cannot create " + store, e);
        }
        // the unnamed instance is the action store, where the records of prepared transactions go (without it they
        // went to PutObjectStoreDirHere in the working directory, where a restart elsewhere could not find them)
        BeanPopulator.getDefaultInstance(ObjectStoreEnvironmentBean.class).setObjectStoreDir(store.toString());
        for (String name : List.of("default", "communicationStore", "stateStore")) {
            ObjectStoreEnvironmentBean bean = BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, name);
            bean.setObjectStoreDir(store.toString());
        }
        try {
            BeanPopulator.getDefaultInstance(CoreEnvironmentBean.class).setNodeIdentifier(nodeId);
        } catch (CoreEnvironmentBeanException e) {
            throw new IllegalArgumentException(XaTransactions.NODE_ID + ": " + e.getMessage(), e);
        }
        // recovery rolls back the unfinished branches of this node only (the node name is in every Xid)
        BeanPopulator.getDefaultInstance(JTAEnvironmentBean.class).setXaRecoveryNodes(List.of(nodeId));
        RecoveryEnvironmentBean periodic = BeanPopulator.getDefaultInstance(RecoveryEnvironmentBean.class);
        periodic.setRecoveryListener(false); // no socket: the gateway needs no remote trigger of a recovery pass
        periodic.setPeriodicRecoveryPeriod(recoverySeconds);
        periodic.setRecoveryBackoffPeriod(Math.max(1, Math.min(10, recoverySeconds / 2)));
        CoordinatorEnvironmentBean coordinator = BeanPopulator.getDefaultInstance(CoordinatorEnvironmentBean.class);
        coordinator.setDefaultTimeout(60);
        // no transaction status service either: it listens on a port for remote status queries this gateway never has
        coordinator.setTransactionStatusManagerEnable(false);
        configured = wanted;
    }

    /** Starts periodic recovery (its modules from the environment, XA recovery among them). */
    static synchronized void startRecovery() {
        if (recovery == null) {
            RecoveryManager.delayRecoveryManagerThread();
            recovery = RecoveryManager.manager(RecoveryManager.INDIRECT_MANAGEMENT);
            recovery.initialize();
            recovery.startRecoveryManagerThread();
        }
    }

    /** Stops periodic recovery, waiting for a running pass. */
    static synchronized void stopRecovery() {
        if (recovery != null) {
            recovery.terminate();
            recovery = null;
        }
    }

    /** Narayana's local (arjunacore) transaction manager; its transactions are bound to the calling thread. */
    static TransactionManager transactionManager() {
        return new TransactionManagerImple();
    }

    /** The user transaction over that manager, which Spring's {@code JtaTransactionManager} drives. */
    static UserTransaction userTransaction() {
        return new UserTransactionImple();
    }

    /** Lets XA recovery ask {@code resource} for its resource manager's in-doubt branches. */
    static void register(RecoveryResource resource) {
        XARecoveryModule.getRegisteredXARecoveryModule().addXAResourceRecoveryHelper(resource);
    }

    /** Stops asking {@code resource} (the gateway closes); Narayana may already have dropped its recovery module. */
    static void unregister(RecoveryResource resource) {
        XARecoveryModule module = XARecoveryModule.getRegisteredXARecoveryModule();
        if (module != null) {
            module.removeXAResourceRecoveryHelper(resource);
        }
    }

    /**
     * The global ids of the transaction records in the object store: transactions whose branches all prepared and
     * whose commit was decided, not yet completed on every branch (a commit running right now, or work for recovery).
     *
     * @throws IllegalStateException when the store cannot be read
     */
    static List<String> recordedTransactions() {
        InputObjectState state = new InputObjectState();
        List<String> ids = new ArrayList<>();
        try {
            if (!StoreManager.getRecoveryStore().allObjUids(TRANSACTION_RECORD, state)) {
                throw new IllegalStateException("Narayana's object store did not list its transaction records");
            }
            // the listing is a sequence of packed Uids ended by the null Uid
            Uid uid = UidHelper.unpackFrom(state);
            while (uid.notEquals(Uid.nullUid())) {
                ids.add(uid.stringForm());
                uid = UidHelper.unpackFrom(state);
            }
        } catch (ObjectStoreException | IOException e) {
            throw new IllegalStateException("Narayana's object store cannot be read: " + e.getMessage(), e);
        }
        return ids;
    }

    /** The global id of a branch Narayana's node {@code nodeId} made, {@code null} for another node's or manager's. */
    static String globalIdOf(Xid xid, String nodeId) {
        if (xid.getFormatId() != XATxConverter.FORMAT_ID) {
            return null;
        }
        XidImple ours = new XidImple(xid);
        return nodeId.equals(XATxConverter.getNodeName(ours.getXID())) ? ours.getTransactionUid().stringForm() : null;
    }

    /**
     * When the transaction of a global id began: a Uid's fourth field is its creation time in seconds since the
     * epoch (hexadecimal); {@code null} when the id does not have that form.
     */
    static Instant begunAt(String globalId) {
        String[] fields = globalId.split(":");
        try {
            return fields.length == 5 ? Instant.ofEpochSecond(Long.parseLong(fields[3], 16)) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
