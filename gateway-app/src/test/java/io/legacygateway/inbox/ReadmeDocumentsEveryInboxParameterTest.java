package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.StandaloneArtemis;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's inbox parameter table is the user's reference: every template parameter is there with its default. */
class ReadmeDocumentsEveryInboxParameterTest {

    @Test
    void everyParameterIsDocumentedWithItsDefault() throws Exception {
        List<String> lines = Files.readAllLines(StandaloneArtemis.repositoryRoot().resolve("README.md"));
        // the inbox's own table: the relay's has rows of the same name (batchSize)
        List<String> inbox = lines.subList(lines.indexOf("## Inbox consumers"), lines.size());
        for (InboxSettings.Parameter p : InboxSettings.Parameter.values()) {
            String row = inbox.stream().filter(l -> l.startsWith("| `" + p.key() + "` |")).findFirst()
                    .orElseThrow(() -> new AssertionError("README has no table row for parameter " + p.key()));
            if (p.defaultValue() != null && !p.defaultValue().isEmpty()) {
                assertThat(row).as(p.key()).contains("| `" + p.defaultValue() + "` |");
            }
        }
        for (DeadLetterReason r : DeadLetterReason.values()) {
            assertThat(String.join("\n", lines)).as(r.name()).contains("`" + r.name() + "`");
        }
    }
}
