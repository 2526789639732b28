package io.legacygateway.cli;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.command.GatewayCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code java -jar gateway-app.jar ddl <dialect> [outbox|relay|inbox|operations ...]}: prints the gateway's DDL for a
 * database, the same scripts {@code initialize-schema} applies, for an owner who applies them by hand. Without parts,
 * every part that ships for the dialect. Needs no configuration, datasource or broker. Asking for a part that does not
 * ship for the dialect is bad usage (exit 2).
 */
@Command(name = "ddl", description = {"print the gateway's tables as SQL: ddl <dialect> [outbox|relay|inbox|operations]",
        "The scripts initialize-schema applies; needs no configuration, datasource or broker."})
public class DdlCommand implements GatewayCommand {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dialect>", converter = DialectId.class,
            completionCandidates = DialectIds.class, description = "the database: ${COMPLETION-CANDIDATES}")
    Dialect dialect;

    @Parameters(index = "1..*", paramLabel = "<part>", converter = PartName.class,
            completionCandidates = PartNames.class, description = "${COMPLETION-CANDIDATES} (default: every part"
            + " that ships for the dialect)")
    List<GatewaySchema> parts;

    @Override
    public int run(PrintStream out) {
        List<GatewaySchema> printed = parts != null ? parts
                : Arrays.stream(GatewaySchema.values()).filter(p -> p.existsFor(dialect)).toList();
        for (GatewaySchema part : printed) {
            if (!part.existsFor(dialect)) {
                throw new ParameterException(spec.commandLine(), "no " + part.part() + " DDL ships for "
                        + dialect.id());
            }
        }
        for (GatewaySchema part : printed) {
            out.println("-- ==== " + part.part() + ": " + part.summary() + " (ddl/" + dialect.id() + "/"
                    + part.script() + ")");
            out.println(part.ddl(dialect).strip());
            out.println();
        }
        return 0;
    }

    /** A dialect by its id ({@code postgresql}, {@code mariadb}, ...). */
    static final class DialectId implements ITypeConverter<Dialect> {
        @Override
        public Dialect convert(String id) {
            return Arrays.stream(Dialect.values()).filter(d -> d.id().equals(id)).findFirst()
                    .orElseThrow(() -> new TypeConversionException("unknown dialect '" + id + "'"));
        }
    }

    static final class DialectIds implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Dialect.values()).map(Dialect::id).iterator();
        }
    }

    /** A part of the schema by its word ({@code outbox}, {@code relay}, ...). */
    static final class PartName implements ITypeConverter<GatewaySchema> {
        @Override
        public GatewaySchema convert(String word) {
            return GatewaySchema.ofPart(word)
                    .orElseThrow(() -> new TypeConversionException("unknown part '" + word + "'"));
        }
    }

    static final class PartNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(GatewaySchema.values()).map(GatewaySchema::part).iterator();
        }
    }
}
