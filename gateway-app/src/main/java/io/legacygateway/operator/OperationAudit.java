package io.legacygateway.operator;

import io.legacygateway.adapters.operations.OperationAuditStore;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import java.time.Clock;
import java.util.Set;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The audit trail of operator actions ({@code gateway_operation_audit} in {@code gateway.operations.data-source}):
 * every redelivery, retry or purge an operator triggers, dry runs included, is recorded with who, when, what and how
 * many. Recording is not optional: an action whose audit row cannot be written fails.
 */
public class OperationAudit {

    private final GatewayDataSources dataSources;
    private final String dataSource;
    private final Clock clock;
    /** Made on the first action: its dialect is read from the database, which need not be up at startup. */
    private volatile OperationAuditStore store;

    public OperationAudit(GatewayProperties properties, GatewayDataSources dataSources, Clock clock) {
        this.dataSources = dataSources;
        this.clock = clock;
        String configured = properties.operations().dataSource();
        Set<String> names = dataSources.names();
        if (!configured.isBlank()) {
            dataSources.get(configured, "gateway.operations.data-source");
            this.dataSource = configured;
        } else {
            this.dataSource = names.size() == 1 ? names.iterator().next() : null;
        }
        if (dataSource != null) {
            dataSources.initializeSchema(dataSource, GatewaySchema.OPERATIONS, "the operator audit");
        }
    }

    /**
     * @param operation what was done, for example {@code dlq.redeliver}
     * @param target    what it was done to, for example a queue or a relay
     * @param selection the filter or ids, as the operator gave them
     * @param affected  how many messages or rows were (or, in a dry run, would have been) affected
     */
    public void record(String operation, String target, String selection, boolean dryRun, int affected,
                       String detail) {
        if (dataSource == null) {
            throw new IllegalStateException("gateway.operations.data-source: set it to the datasource that holds "
                    + "gateway_operation_audit (several datasources are configured)");
        }
        store().record(clock.instant(), actor(), operation, target, selection, dryRun, affected, detail);
    }

    private OperationAuditStore store() {
        OperationAuditStore s = store;
        if (s == null) {
            s = new OperationAuditStore(dataSources.get(dataSource, "gateway.operations.data-source"),
                    dataSources.dialect(dataSource));
            store = s;
        }
        return s;
    }

    /** The authenticated user of the current request (REST, Jolokia/Hawtio), else the process's user. */
    public static String actor() {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth != null && auth.isAuthenticated() && auth.getName() != null) {
            return auth.getName();
        }
        return "local:" + System.getProperty("user.name", "unknown");
    }

    /** The datasource holding the audit table, or {@code null} when it cannot be chosen. */
    public String dataSource() {
        return dataSource;
    }
}
