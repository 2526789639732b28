package io.legacygateway.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.NoSuchFileException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The words of a failure, as logs, dead letters, reports and a failed startup show them. */
class FailuresTest {

    private static final SQLException LOCK_TIMEOUT =
            new SQLException("ERROR: canceling statement due to lock timeout\n  Where: SQL statement", "55P03");

    @Test
    void describeNamesTheOuterFailureAndItsRootEachByClassAndFirstLine() {
        IllegalStateException outer = new IllegalStateException("update failed\nsecond line",
                new RuntimeException("wrapper", LOCK_TIMEOUT));

        assertThat(Failures.describe(outer)).isEqualTo("IllegalStateException: update failed <- SQLException: ERROR:"
                + " canceling statement due to lock timeout");
        assertThat(Failures.describe(new IllegalStateException("alone"))).isEqualTo("IllegalStateException: alone");
        assertThat(Failures.describe(new IllegalStateException())).isEqualTo("IllegalStateException: ");
    }

    @Test
    void rootMessageIsTheInnermostMessageOnly() {
        assertThat(Failures.rootMessage(new IllegalStateException("outer", LOCK_TIMEOUT)))
                .isEqualTo(LOCK_TIMEOUT.getMessage());
        assertThat(Failures.rootMessage(new IllegalStateException("alone"))).isEqualTo("alone");
    }

    @Test
    void chainDropsTheWrappersThatOnlyRepeatTheirCause() {
        NoSuchFileException missing = new NoSuchFileException("routes/demo");
        RuntimeException repeats = new RuntimeException("java.nio.file.NoSuchFileException: routes/demo", missing);
        IllegalStateException outer = new IllegalStateException("Failed to start route", repeats);

        assertThat(Failures.chain(outer))
                .isEqualTo("IllegalStateException: Failed to start route; caused by NoSuchFileException: routes/demo");
        assertThat(Failures.chain(new RuntimeException(missing))).isEqualTo("NoSuchFileException: routes/demo");
    }

    @Test
    void aCauseThatLoopsEndsTheWalk() {
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.initCause(second);

        assertThat(Failures.describe(first)).startsWith("RuntimeException: first");
        assertThat(Failures.chain(first)).startsWith("RuntimeException: first; caused by RuntimeException: second");
    }

    @Test
    void theReasonIsTheGatewaysOwnRefusalNotTheWrappersThatMetIt() {
        IllegalArgumentException refusal = new IllegalArgumentException("outbox-relay 'x' parameter 'table': refused");
        RuntimeException binding = new RuntimeException("Error binding property (delay=#relayPollMillis-2)", refusal);
        RuntimeException route = new RuntimeException("Failed to create route", binding);

        assertThat(Failures.reason(route)).isEqualTo("outbox-relay 'x' parameter 'table': refused");
        // a library's own argument error does not name the key: the chain does
        IllegalArgumentException converter = java.util.Objects.requireNonNull(catchEnum());
        RuntimeException bind = new RuntimeException("Failed to bind properties under 'gateway.relay'", converter);
        assertThat(Failures.reason(bind)).isEqualTo(Failures.chain(bind));
    }

    private static IllegalArgumentException catchEnum() {
        try {
            Thread.State.valueOf("NOPE");
            return null;
        } catch (IllegalArgumentException e) {
            return e;
        }
    }
}
