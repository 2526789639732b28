package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.OutboxColumn;
import io.legacygateway.testsupport.StandaloneArtemis;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's parameter tables are the user's reference: every template parameter is there with its default. */
class ReadmeDocumentsEveryRelayParameterTest {

    @Test
    void everyParameterAndColumnIsDocumentedWithItsDefault() throws Exception {
        List<String> lines = Files.readAllLines(StandaloneArtemis.repositoryRoot().resolve("README.md"));
        for (RelaySettings.Parameter p : RelaySettings.Parameter.values()) {
            String row = row(lines, p.key());
            if (p.defaultValue() != null && !p.defaultValue().isEmpty()) {
                assertThat(row).as(p.key()).contains("| `" + p.defaultValue() + "` |");
            }
        }
        for (OutboxColumn c : OutboxColumn.values()) {
            assertThat(row(lines, c.parameter())).as(c.parameter())
                    .contains("| `" + c.defaultName() + "` | " + c.requirement().text() + " |");
            if (c.valueParameter() != null) {
                assertThat(row(lines, c.valueParameter())).as(c.valueParameter()).contains("| (none) |");
            }
        }
    }

    private static String row(List<String> lines, String key) {
        return lines.stream().filter(l -> l.startsWith("| `" + key + "` |")).findFirst()
                .orElseThrow(() -> new AssertionError("README has no table row for parameter " + key));
    }
}
