package io.legacygateway.inbox;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.CamelContext;
import org.apache.camel.StartupListener;

/**
 * Refuses to start a consumer whose {@code direct:} upcast route (or a {@code direct:} route it calls) publishes or
 * writes ({@code EventStep#forbiddenSteps}): an upcast runs in the inbox transaction and may run again for the same
 * event, so it must be pure. The routes of a consumer's YAML may be defined after its template was instantiated, so
 * the check runs once the Camel context holds every route (when it starts, or at once for a consumer added to a
 * running context); it fails the start, naming the parameter and the route.
 */
final class UpcastRouteCheck implements StartupListener {

    private final Upcasts upcasts;
    private final AtomicBoolean done = new AtomicBoolean();

    private UpcastRouteCheck(Upcasts upcasts) {
        this.upcasts = upcasts;
    }

    /** Registers the check of {@code upcasts} with {@code camel}; a running context is checked now. */
    static void register(CamelContext camel, Upcasts upcasts) {
        try {
            camel.addStartupListener(new UpcastRouteCheck(upcasts));
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public void onCamelContextStarted(CamelContext context, boolean alreadyStarted) {
        check();
    }

    @Override
    public void onCamelContextFullyStarted(CamelContext context, boolean alreadyStarted) {
        check();
    }

    private void check() {
        if (!done.compareAndSet(false, true)) {
            return;
        }
        List<String> forbidden = upcasts.forbiddenSteps();
        if (!forbidden.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", forbidden));
        }
    }
}
