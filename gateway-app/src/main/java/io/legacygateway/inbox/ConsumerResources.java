package io.legacygateway.inbox;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;

/**
 * What each consumer's route holds besides its listener containers (which Camel stops with the route), by consumer
 * name: closed when the consumer is released ({@code InboxConsumerFactory.release}).
 */
final class ConsumerResources {

    private static final Logger log = InboxLog.FACTORY;

    private final Map<String, List<AutoCloseable>> held = new ConcurrentHashMap<>();

    void add(String consumer, AutoCloseable resource) {
        held.computeIfAbsent(consumer, k -> new CopyOnWriteArrayList<>()).add(resource);
    }

    /** Closes what {@code consumer} holds; a failure is logged at DEBUG and the others are closed all the same. */
    void close(String consumer) {
        List<AutoCloseable> resources = held.remove(consumer);
        for (AutoCloseable c : resources == null ? List.<AutoCloseable>of() : resources) {
            try {
                c.close();
            } catch (Exception e) {
                log.debug("closing what consumer '{}' held failed: {}", consumer, e.toString());
            }
        }
    }
}
