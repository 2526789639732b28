package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.RepositoryDocs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The inbox page's parameter table ({@code docs/inbox.md}, between the {@code parameters:inbox} markers) is the user's
 * reference: every template parameter is there with its default; and the dead-letter page names every reason class.
 */
class ReadmeDocumentsEveryInboxParameterTest {

    @Test
    void everyParameterIsDocumentedWithItsDefault() {
        // the inbox's own table: the relay's has rows of the same name (batchSize)
        List<String> inbox = RepositoryDocs.marked("docs/inbox.md", "parameters:inbox");
        for (InboxSettings.Parameter p : InboxSettings.Parameter.values()) {
            String row = inbox.stream().filter(l -> l.startsWith("| `" + p.key() + "` |")).findFirst()
                    .orElseThrow(() -> new AssertionError("docs/inbox.md has no table row for parameter " + p.key()));
            if (p.defaultValue() != null && !p.defaultValue().isEmpty()) {
                assertThat(row).as(p.key()).contains("| `" + p.defaultValue() + "` |");
            }
        }
        String deadLetters = String.join("\n", RepositoryDocs.lines("docs/dead-letters.md"));
        for (DeadLetterReason r : DeadLetterReason.values()) {
            assertThat(deadLetters).as(r.name()).contains("`" + r.name() + "`");
        }
    }
}
