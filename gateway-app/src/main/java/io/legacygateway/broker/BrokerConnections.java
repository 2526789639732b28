package io.legacygateway.broker;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.XAConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQXAConnectionFactory;
import org.springframework.jms.connection.DelegatingConnectionFactory;
import org.springframework.jms.connection.SingleConnectionFactory;

/** The broker client's own connection factory behind the application's, for parts that manage connections themselves. */
public final class BrokerConnections {

    private BrokerConnections() {
    }

    /**
     * An XA connection factory to the same broker as {@code cf}, with the same user and client settings (its URI), for
     * the relays with {@code transactionMode: XA}; never a bean, so nothing else sees a second factory.
     *
     * @throws IllegalArgumentException when the broker client is not Artemis's
     */
    public static XAConnectionFactory xaFactory(ConnectionFactory cf, String parameter) {
        if (!(nativeFactory(cf) instanceof ActiveMQConnectionFactory artemis)) {
            throw new IllegalArgumentException(parameter + ": XA needs the Artemis client (spring.artemis.*)");
        }
        try {
            ActiveMQXAConnectionFactory xa = new ActiveMQXAConnectionFactory(artemis.toURI().toString());
            xa.setUser(artemis.getUser());
            xa.setPassword(artemis.getPassword());
            return xa;
        } catch (IOException e) {
            throw new UncheckedIOException(parameter + ": cannot derive the broker's XA connection factory", e);
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
