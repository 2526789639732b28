package io.legacygateway.demo.lab;

import io.legacygateway.command.CommandBeans;
import io.legacygateway.command.ConfiguredCommand;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.operator.OperationAudit;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar gateway-demo.jar [--spring options] lab [--data-source=NAME]}: runs {@link ReconciliationLab}'s four
 * probes against the configured database and broker and prints each evidence record and its classification. Exits 0
 * when every probe is classified as expected, 1 otherwise, 2 on bad usage. It creates and rewrites its own tables
 * ({@code gateway_lab_*}) in that datasource: point it at a database where that is allowed.
 */
@Command(name = "lab", description = {"run the four reconciliation probes against the configured database and broker;"
        + " exit 1 when one is classified otherwise",
        "It creates and rewrites its own tables (gateway_lab_*) in that datasource: point it at a database where that"
        + " is allowed."})
public class LabCommand implements ConfiguredCommand {

    @Spec
    CommandSpec spec;

    @Option(names = "--data-source", paramLabel = "NAME", description = "the datasource under gateway.datasources"
            + " (default: gateway.operations.data-source, else the only one)")
    String dataSource;

    @Override
    public int run(CommandBeans beans, PrintStream out) throws Exception {
        GatewayDataSources dataSources = beans.get(GatewayDataSources.class);
        String name = dataSource != null ? dataSource : beans.get(OperationAudit.class).dataSource();
        if (name == null) {
            throw new ParameterException(spec.commandLine(), "--data-source is required (datasources: "
                    + dataSources.names() + ")");
        }
        dataSources.get(name, "--data-source");
        List<ReconciliationLab.ProbeResult> results = beans.get(ReconciliationLab.class).run(name, out);
        return results.stream().allMatch(ReconciliationLab.ProbeResult::passed) ? 0 : 1;
    }
}
