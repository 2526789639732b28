package io.legacygateway.reconciliation;

import io.legacygateway.cli.GatewayApiClient;
import io.legacygateway.cli.GatewayCommand;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.operator.OperationAudit;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code java -jar gateway-demo.jar [--spring options] lab [--data-source=NAME]}: runs {@link ReconciliationLab}'s four
 * probes against the configured database and broker and prints each evidence record and its classification. Exits 0
 * when every probe is classified as expected, 1 otherwise, 2 on bad usage. It creates and rewrites its own tables
 * ({@code gateway_lab_*}) in that datasource: point it at a database where that is allowed.
 */
public class LabCommand implements GatewayCommand {

    private final ReconciliationLab lab;
    private final GatewayDataSources dataSources;
    private final OperationAudit audit;

    /** @param audit its datasource (gateway.operations.data-source, else the only one) is the lab's default */
    public LabCommand(ReconciliationLab lab, GatewayDataSources dataSources, OperationAudit audit) {
        this.lab = lab;
        this.dataSources = dataSources;
        this.audit = audit;
    }

    @Override
    public int run(List<String> arguments, PrintStream out) throws Exception {
        List<String> args = new ArrayList<>(arguments);
        String dataSource = GatewayApiClient.option(args, "data-source", audit.dataSource());
        if (!args.isEmpty() || dataSource == null) {
            out.println((args.isEmpty() ? "error: --data-source is required (datasources: " + dataSources.names() + ")"
                    : "error: unknown argument '" + args.get(0) + "'") + "\nusage: lab [--data-source=NAME]");
            return 2;
        }
        dataSources.get(dataSource, "--data-source");
        List<ReconciliationLab.ProbeResult> results = lab.run(dataSource, out);
        return results.stream().allMatch(ReconciliationLab.ProbeResult::passed) ? 0 : 1;
    }
}
