package io.legacygateway.transactions;

import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import jakarta.jms.JMSException;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XASession;
import java.sql.SQLException;
import java.util.List;
import javax.sql.XAConnection;
import javax.sql.XADataSource;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What periodic recovery asks for the in-doubt branches of one resource manager (a database, the broker): an XA
 * resource on a connection of its own, opened on first use, checked before each pass and opened again when it broke
 * (a database or broker restarted between two passes). A resource manager that cannot be reached offers nothing in
 * that pass; the next pass tries again.
 */
public final class RecoveryResource implements XAResourceRecoveryHelper, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RecoveryResource.class);

    /** An open connection and its XA resource. */
    private interface Opened extends AutoCloseable {
        XAResource resource();

        boolean valid();
    }

    @FunctionalInterface
    private interface Opener {
        Opened open() throws Exception;
    }

    private final String name;
    private final Opener opener;
    private Opened opened;

    private RecoveryResource(String name, Opener opener) {
        this.name = name;
        this.opener = opener;
    }

    /** The branches of a database, through its XA datasource. */
    public static RecoveryResource database(String name, XADataSource xa) {
        return new RecoveryResource("datasource '" + name + "'", () -> {
            XAConnection c = xa.getXAConnection();
            XAResource resource = c.getXAResource();
            return new Opened() {
                @Override
                public XAResource resource() {
                    return resource;
                }

                @Override
                public boolean valid() {
                    try {
                        return c.getConnection().isValid(5);
                    } catch (SQLException e) {
                        return false;
                    }
                }

                @Override
                public void close() throws SQLException {
                    c.close();
                }
            };
        });
    }

    /** The branches of the broker, through its XA connection factory. */
    public static RecoveryResource broker(XAConnectionFactory factory) {
        return new RecoveryResource("the broker", () -> {
            var c = factory.createXAConnection();
            boolean[] broken = {false};
            c.setExceptionListener(e -> broken[0] = true);
            XASession session = c.createXASession();
            XAResource resource = session.getXAResource();
            return new Opened() {
                @Override
                public XAResource resource() {
                    return resource;
                }

                @Override
                public boolean valid() {
                    return !broken[0];
                }

                @Override
                public void close() throws JMSException {
                    c.close();
                }
            };
        });
    }

    /** What the operator reads: {@code datasource 'legacy'} or {@code the broker}. */
    public String name() {
        return name;
    }

    /**
     * The prepared branches the resource manager reports now (every node's), on a connection of its own that is
     * closed again, so that a report never disturbs recovery's.
     *
     * @throws Exception when the resource manager cannot be reached or refuses the scan
     */
    List<Xid> prepared() throws Exception {
        try (Opened scan = opener.open()) {
            Xid[] xids = scan.resource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
            return xids == null ? List.of() : List.of(xids);
        }
    }

    @Override
    public boolean initialise(String properties) {
        return true;
    }

    @Override
    public synchronized XAResource[] getXAResources() {
        if (opened != null && !opened.valid()) {
            close();
        }
        if (opened == null) {
            try {
                opened = opener.open();
            } catch (Exception e) {
                log.warn("XA recovery: {} cannot be reached ({}); its in-doubt branches wait for the next pass", name,
                        e.toString());
                return new XAResource[0];
            }
        }
        return new XAResource[] {opened.resource()};
    }

    @Override
    public synchronized void close() {
        if (opened != null) {
            try {
                opened.close();
            } catch (Exception e) {
                log.debug("XA recovery: closing the connection to {} failed: {}", name, e.toString());
            }
            opened = null;
        }
    }
}
