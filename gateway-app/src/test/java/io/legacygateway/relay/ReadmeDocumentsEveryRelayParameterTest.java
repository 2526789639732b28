package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.OutboxColumn;
import io.legacygateway.testsupport.RepositoryDocs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The relay page's parameter tables ({@code docs/relay.md}, between the {@code parameters:relay} and
 * {@code columns:relay} markers) are the user's reference: every template parameter is there with its default.
 */
class ReadmeDocumentsEveryRelayParameterTest {

    static final String PAGE = "docs/relay.md";

    @Test
    void everyParameterAndColumnIsDocumentedWithItsDefault() {
        List<String> lines = new ArrayList<>(RepositoryDocs.marked(PAGE, "parameters:relay"));
        lines.addAll(RepositoryDocs.marked(PAGE, "columns:relay"));
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
                .orElseThrow(() -> new AssertionError(PAGE + " has no table row for parameter " + key));
    }
}
