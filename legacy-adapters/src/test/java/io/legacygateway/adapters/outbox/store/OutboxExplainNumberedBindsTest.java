package io.legacygateway.adapters.outbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code relay explain} on PostgreSQL prepares the statement: its binds become $1, $2, ... and nothing else does. */
class OutboxExplainNumberedBindsTest {

    @Test
    void bindsAreNumberedInOrderOutsideQuotedLiteralsAndIdentifiers() {
        assertThat(OutboxExplain.numberedBinds("SELECT \"a?\" FROM t WHERE s = 'N?''?' AND k IN (?, ?) LIMIT ?"))
                .isEqualTo("SELECT \"a?\" FROM t WHERE s = 'N?''?' AND k IN ($1, $2) LIMIT $3");
    }
}
