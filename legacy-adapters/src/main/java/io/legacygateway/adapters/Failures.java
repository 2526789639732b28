package io.legacygateway.adapters;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a failure into the text that the gateway's logs, dead letters, reports and startup errors show, so that every
 * surface words a failure the same way. Each method takes any throwable, walks at most a bounded cause chain (a cause
 * that is its own cause ends it) and never throws.
 */
public final class Failures {

    /** Causes followed at most: a chain longer than this is a bug, not a diagnosis. */
    private static final int MAX_DEPTH = 32;

    private Failures() {
    }

    /**
     * The failure and its innermost cause, each as its simple class name and the first line of its message:
     * {@code UncategorizedSQLException: ... <- PSQLException: ERROR: canceling statement due to lock timeout}, or only
     * the first part when there is no cause. What logs and dead-letter reasons show: the outer exception says what the
     * gateway was doing, the root what the database or broker said.
     */
    public static String describe(Throwable failure) {
        Throwable root = root(failure);
        String top = line(failure);
        return root == failure ? top : top + " <- " + line(root);
    }

    /**
     * The message of the innermost cause, nothing else: what the driver or converter said, for a sentence of the
     * gateway's own that already names what failed ({@code "cannot read table 'x' (" + rootMessage(e) + ")"}).
     */
    public static String rootMessage(Throwable failure) {
        return root(failure).getMessage();
    }

    /**
     * The cause chain, outermost first, joined by {@code "; caused by "}, without the wrappers whose message only
     * repeats their cause's: for example {@code NoSuchFileException: routes/demo} rather than three exceptions saying
     * so. Each entry is the simple class name and the full message. What a failed startup reports as its last line.
     */
    public static String chain(Throwable failure) {
        List<String> chain = new ArrayList<>();
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH && chain.size() < 10; depth++, t = next(t)) {
            Throwable next = next(t);
            String message = t.getMessage();
            boolean wrapper = next != null && (message == null || (next.getMessage() != null
                    && message.contains(next.getMessage())));
            if (!wrapper) {
                chain.add(t.getClass().getSimpleName() + (message == null ? "" : ": " + message));
            }
        }
        return String.join("; caused by ", chain);
    }

    /**
     * The reason a startup failed, as the user must read it first: the message of the innermost
     * {@link IllegalArgumentException} or {@link IllegalStateException} in the chain that the gateway's own code threw
     * (it refuses a configuration with those, naming the relay, the parameter and the table), not the wrappers of the
     * framework that met it ({@code FailedToCreateRouteException}, {@code PropertyBindingException: Error binding
     * property (delay=#relayPollMillis-2) ... on bean: timer://...}); {@link #chain} when the chain holds none (an
     * exception a library threw, such as a converter's, does not name the key: its wrappers do).
     */
    public static String reason(Throwable failure) {
        String reason = null;
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = next(t)) {
            if ((t instanceof IllegalArgumentException || t instanceof IllegalStateException) && t.getMessage() != null
                    && !t.getMessage().isBlank() && thrownByTheGateway(t)) {
                // a class of the gateway's own names the failure too (NothingConfiguredException: ...)
                boolean plain = t.getClass() == IllegalArgumentException.class
                        || t.getClass() == IllegalStateException.class;
                reason = (plain ? "" : t.getClass().getSimpleName() + ": ") + t.getMessage();
            }
        }
        return reason != null ? reason : chain(failure);
    }

    private static boolean thrownByTheGateway(Throwable t) {
        StackTraceElement[] frames = t.getStackTrace();
        return frames.length > 0 && frames[0].getClassName().startsWith("io.legacygateway.");
    }

    /** The innermost cause of {@code failure}, itself when it has none. */
    public static Throwable root(Throwable failure) {
        Throwable root = failure;
        for (int depth = 0; depth < MAX_DEPTH && next(root) != null; depth++) {
            root = next(root);
        }
        return root;
    }

    /** The first line of {@code message}; {@code ""} for none. */
    public static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    private static String line(Throwable t) {
        return t.getClass().getSimpleName() + ": " + firstLine(t.getMessage());
    }

    private static Throwable next(Throwable t) {
        Throwable cause = t.getCause();
        return cause == t ? null : cause;
    }
}
