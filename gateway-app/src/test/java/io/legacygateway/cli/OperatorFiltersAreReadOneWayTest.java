package io.legacygateway.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.deadletter.DeadLetterFilter;
import io.legacygateway.deadletter.DeadLettersCommand;
import io.legacygateway.reconciliation.ReconcileCommand;
import io.legacygateway.reconciliation.ReconciliationQuery;
import io.legacygateway.relay.RelayCommand;
import io.legacygateway.relay.RelayOperations;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Each operator filter has one record that reads it, whichever way it comes: the REST query, the JMX arguments and the
 * command's options ({@code @Mixin}) name its fields with the record's keys, a value the record refuses is refused
 * naming the field and value, and the command refuses it as bad usage (exit 2) before it calls a gateway (none runs
 * here: a call would fail to connect).
 */
class OperatorFiltersAreReadOneWayTest {

    @Test
    void theCommandsOptionsAreTheFiltersKeys() {
        assertThat(optionKeys(new RelayCommand(), "failed", "filter")).isEqualTo(RelayOperations.Filter.KEYS);
        assertThat(optionKeys(new RelayCommand(), "retry", "filter")).isEqualTo(RelayOperations.Filter.KEYS);
        assertThat(optionKeys(new DeadLettersCommand(), "show", "selection")).isEqualTo(DeadLetterFilter.KEYS);
        assertThat(optionKeys(new DeadLettersCommand(), "redeliver", "selection")).isEqualTo(DeadLetterFilter.KEYS);
        assertThat(new CommandLine(new ReconcileCommand()).getCommandSpec().mixins().get("selection").options())
                .extracting(o -> camel(o.longestName())).containsExactly(ReconciliationQuery.ALL,
                        ReconciliationQuery.INTENT_ID);
    }

    @Test
    void aFilterReadsWhatItWritesAndNamesTheFieldOfABadValue() {
        RelayOperations.Filter f = RelayOperations.Filter.from(Map.of("eventType", " OrderPaid ", "from",
                "2026-11-29T10:00:00Z", "limit", "5"));
        assertThat(f).isEqualTo(new RelayOperations.Filter("OrderPaid", null, Instant.parse("2026-11-29T10:00:00Z"),
                null, null));
        assertThat(RelayOperations.Filter.from(f.parameters())).isEqualTo(f);
        assertThat(RelayOperations.Filter.parse("OrderPaid", "", "2026-11-29T10:00:00Z", null, " ")).isEqualTo(f);
        assertThatThrownBy(() -> RelayOperations.Filter.from(Map.of("to", "tomorrow")))
                .hasMessage("to: 'tomorrow' is not an ISO-8601 instant such as 2026-11-29T10:00:00Z");

        DeadLetterFilter d = DeadLetterFilter.parse("type=OrderCreated&from=2026-05-01&ids=a, b");
        assertThat(DeadLetterFilter.parse(d.parameters())).isEqualTo(d);

        ReconciliationQuery q = ReconciliationQuery.from(Map.of("relay", "orders", "all", "true", "format", "text"));
        assertThat(q).isEqualTo(new ReconciliationQuery("orders", true, null));
        assertThat(ReconciliationQuery.from(q.parameters())).isEqualTo(q);
        assertThatThrownBy(() -> ReconciliationQuery.from(Map.of("all", "maybe")))
                .hasMessage("all: 'maybe' is not true or false");
    }

    @Test
    void aCommandRefusesABadFilterValueAsBadUsageBeforeCallingTheGateway() throws Exception {
        String nowhere = "--gateway=http://127.0.0.1:1";
        Run relay = run(new RelayCommand(), "failed", "orders", "--from=yesterday", nowhere);
        assertThat(relay.status()).as(relay.output()).isEqualTo(2);
        assertThat(relay.output()).contains("from: 'yesterday' is not an ISO-8601 instant");
        Run retry = run(new RelayCommand(), "retry", "orders", "--to=soon", "--dry-run", nowhere);
        assertThat(retry.status()).as(retry.output()).isEqualTo(2);
        assertThat(retry.output()).contains("to: 'soon'");
        Run dlq = run(new DeadLettersCommand(), "show", "--from=yesterday", nowhere);
        assertThat(dlq.status()).as(dlq.output()).isEqualTo(2);
        assertThat(dlq.output()).contains("'from' = 'yesterday'");
    }

    private static List<String> optionKeys(Object command, String subcommand, String mixin) {
        return new CommandLine(command).getSubcommands().get(subcommand).getCommandSpec().mixins().get(mixin)
                .options().stream().map(OptionSpec::longestName).map(OperatorFiltersAreReadOneWayTest::camel)
                .toList();
    }

    /** {@code --reason-class} is the key {@code reasonClass}. */
    private static String camel(String option) {
        String[] words = option.substring(2).split("-");
        return words[0] + Arrays.stream(words).skip(1)
                .map(w -> Character.toUpperCase(w.charAt(0)) + w.substring(1)).collect(Collectors.joining());
    }

    private record Run(int status, String output) {
    }

    private static Run run(Object command, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = GatewayCli.execute(command, List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8));
    }
}
