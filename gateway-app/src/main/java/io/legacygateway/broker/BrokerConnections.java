package io.legacygateway.broker;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.XAConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.jms.client.ActiveMQConnection;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQXAConnectionFactory;
import org.springframework.jms.connection.DelegatingConnectionFactory;
import org.springframework.jms.connection.SingleConnectionFactory;

/** The broker client's own connection factory behind the application's, for parts that manage connections themselves. */
public final class BrokerConnections {

    /**
     * The producer window of the relays' connections ({@link #publishingFactory}): a batch of 500 events of ~1.5 KiB
     * fits in it.
     */
    public static final int PUBLISHER_WINDOW_BYTES = 1024 * 1024;

    private BrokerConnections() {
    }

    /**
     * The factory the relays publish with: {@code cf} (the broker client's own, {@link #nativeFactory}) with a producer
     * window of {@value #PUBLISHER_WINDOW_BYTES} bytes instead of the client's default of 64 KiB, unless its URL sets
     * {@code producerWindowSize} to another value, which is kept as given: with 64 KiB a producer waits a round trip for
     * credits every few dozen events of a batch (docs/architecture.md, "Decisions"). The window bounds only what a
     * producer may have in flight; the
     * broker's own limits ({@code max-size-bytes}, the address-full policy) apply as before. Another client's factory
     * is returned as it is.
     */
    public static ConnectionFactory publishingFactory(ConnectionFactory cf) {
        if (!(cf instanceof ActiveMQConnectionFactory artemis)
                || artemis.getProducerWindowSize() != ActiveMQClient.DEFAULT_PRODUCER_WINDOW_SIZE) {
            return cf;
        }
        ActiveMQConnectionFactory publishing = copyOf(artemis, artemis instanceof ActiveMQXAConnectionFactory);
        publishing.setProducerWindowSize(PUBLISHER_WINDOW_BYTES);
        return publishing;
    }

    /**
     * A new factory with every client setting of {@code base} (its URI: servers, credentials, timeouts, reconnection,
     * large-message and window settings, whether given in the broker URL or by setters), for a part that needs other
     * client settings than the application's factory (which is read-only once used).
     *
     * @param xa whether the copy is an {@link ActiveMQXAConnectionFactory}
     */
    public static ActiveMQConnectionFactory copyOf(ActiveMQConnectionFactory base, boolean xa) {
        return fromUri(base, xa, "a copy of the broker client's connection factory");
    }

    /**
     * A factory for one-off checks of the broker (readiness): {@code cf}'s broker, credentials and settings, but a call
     * (the connection's creation, the wait for an HA URL's cluster topology) waits at most {@code bound}, and the
     * servers are tried once, never reconnected to: a check ends in bounded time even where the gateway's own
     * connections wait for a broker without limit ({@code initialConnectAttempts=-1}) or the broker died while a
     * connection was being opened. {@code cf}, unwrapped, when its client is not Artemis's.
     */
    public static ConnectionFactory checkingFactory(ConnectionFactory cf, Duration bound) {
        if (!(nativeFactory(cf) instanceof ActiveMQConnectionFactory artemis)) {
            return nativeFactory(cf);
        }
        ActiveMQConnectionFactory checking = copyOf(artemis, false);
        checking.setCallTimeout(bound.toMillis());
        checking.setCallFailoverTimeout(bound.toMillis());
        checking.setInitialConnectAttempts(1);
        checking.setReconnectAttempts(0);
        return checking;
    }

    /**
     * An XA connection factory to the same broker as {@code cf}, with the same user, producer window and client settings
     * (its URI), for the relays with {@code transactionMode: XA}; never a bean, so nothing else sees a second factory.
     *
     * @throws IllegalArgumentException when the broker client is not Artemis's
     */
    public static XAConnectionFactory xaFactory(ConnectionFactory cf, String parameter) {
        if (!(nativeFactory(cf) instanceof ActiveMQConnectionFactory artemis)) {
            throw new IllegalArgumentException(parameter + ": XA needs the Artemis client (spring.artemis.*)");
        }
        return (XAConnectionFactory) fromUri(artemis, true, parameter + ": the broker's XA connection factory");
    }

    /**
     * A new factory from {@code artemis}'s URI, which holds its current settings (those of the broker URL and those
     * given by setters, user and password included) for a remote broker; user, password, the windows, large-message
     * settings and call timeouts are set again, as an in-VM factory's URI holds none of them.
     */
    private static ActiveMQConnectionFactory fromUri(ActiveMQConnectionFactory artemis, boolean xa, String what) {
        return fromUri(artemis, xa, what, artemis instanceof Watched w ? w.watch() : null);
    }

    /** {@link #fromUri(ActiveMQConnectionFactory, boolean, String)}, watched by {@code watch} unless it is null. */
    private static ActiveMQConnectionFactory fromUri(ActiveMQConnectionFactory artemis, boolean xa, String what,
                                                     BrokerFailovers.Watch watch) {
        try {
            String uri = artemis.toURI().toString();
            ActiveMQConnectionFactory cf = watch != null ? (xa ? new WatchedXa(uri, watch) : new WatchedPlain(uri, watch))
                    : xa ? new ActiveMQXAConnectionFactory(uri) : new ActiveMQConnectionFactory(uri);
            cf.setUser(artemis.getUser());
            cf.setPassword(artemis.getPassword());
            cf.setProducerWindowSize(artemis.getProducerWindowSize());
            // the URI of an in-VM factory (the embedded broker) names only its connector: its settings are copied here
            cf.setMinLargeMessageSize(artemis.getMinLargeMessageSize());
            cf.setCompressLargeMessage(artemis.isCompressLargeMessage());
            cf.setConsumerWindowSize(artemis.getConsumerWindowSize());
            cf.setConfirmationWindowSize(artemis.getConfirmationWindowSize());
            cf.setCallTimeout(artemis.getCallTimeout());
            cf.setCallFailoverTimeout(artemis.getCallFailoverTimeout());
            cf.setBlockOnDurableSend(artemis.isBlockOnDurableSend());
            return cf;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot derive " + what + " from " + artemis, e);
        }
    }

    /** A copy of {@code artemis} whose every connection is watched by {@code watch} ({@link BrokerFailovers#watch}). */
    static ActiveMQConnectionFactory watched(ActiveMQConnectionFactory artemis, BrokerFailovers.Watch watch,
                                             boolean xa) {
        return fromUri(artemis, xa, "a watched broker connection factory", watch);
    }

    /** A factory whose connections report their failovers ({@link BrokerFailovers}). */
    interface Watched {
        BrokerFailovers.Watch watch();
    }

    /**
     * Registers the failover listener on each connection as the client creates it: every way of opening one
     * ({@code createConnection}, {@code createXAConnection}, {@code createContext}) goes through
     * {@code createConnectionInternal}. Not serialisable with its watch (never bound in JNDI).
     */
    private static final class WatchedPlain extends ActiveMQConnectionFactory implements Watched {
        private final transient BrokerFailovers.Watch watch;

        WatchedPlain(String uri, BrokerFailovers.Watch watch) {
            super(uri);
            this.watch = watch;
        }

        @Override
        public BrokerFailovers.Watch watch() {
            return watch;
        }

        @Override
        protected synchronized ActiveMQConnection createConnectionInternal(String username, String password,
                                                                           boolean isXA, int type)
                throws JMSException {
            ActiveMQConnection c = super.createConnectionInternal(username, password, isXA, type);
            watch.connected(c);
            return c;
        }
    }

    /** {@link WatchedPlain} for XA. */
    private static final class WatchedXa extends ActiveMQXAConnectionFactory implements Watched {
        private final transient BrokerFailovers.Watch watch;

        WatchedXa(String uri, BrokerFailovers.Watch watch) {
            super(uri);
            this.watch = watch;
        }

        @Override
        public BrokerFailovers.Watch watch() {
            return watch;
        }

        @Override
        protected synchronized ActiveMQConnection createConnectionInternal(String username, String password,
                                                                           boolean isXA, int type)
                throws JMSException {
            ActiveMQConnection c = super.createConnectionInternal(username, password, isXA, type);
            watch.connected(c);
            return c;
        }
    }

    /**
     * The factory that {@code cf} wraps, unwrapped through Spring's caching and delegating wrappers; {@code cf} itself
     * when it wraps nothing. Relays keep one connection each and manage their sessions themselves; Spring's caching
     * wrapper shares one connection between everything and would tie a relay's failure to the consumers' connection.
     */
    public static ConnectionFactory nativeFactory(ConnectionFactory cf) {
        ConnectionFactory current = cf;
        while (true) {
            if (current instanceof SingleConnectionFactory s && s.getTargetConnectionFactory() != null) {
                current = s.getTargetConnectionFactory();
            } else if (current instanceof DelegatingConnectionFactory d && d.getTargetConnectionFactory() != null) {
                current = d.getTargetConnectionFactory();
            } else {
                return current;
            }
        }
    }
}
