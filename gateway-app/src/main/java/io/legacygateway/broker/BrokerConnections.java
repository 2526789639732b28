package io.legacygateway.broker;

import jakarta.jms.ConnectionFactory;
import org.springframework.jms.connection.DelegatingConnectionFactory;
import org.springframework.jms.connection.SingleConnectionFactory;

/** The broker client's own connection factory behind the application's, for parts that manage connections themselves. */
public final class BrokerConnections {

    private BrokerConnections() {
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
