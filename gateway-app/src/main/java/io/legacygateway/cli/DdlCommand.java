package io.legacygateway.cli;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code java -jar gateway-app.jar ddl <dialect> [outbox|relay|inbox|operations ...]}: prints the gateway's DDL for a
 * database, the same scripts {@code initialize-schema} applies, for an owner who applies them by hand. Without parts,
 * every part that ships for the dialect. Needs no configuration, datasource or broker.
 */
public class DdlCommand implements GatewayCommand {

    private static String usage() {
        return "usage: ddl <dialect> [part ...]\n"
                + "  dialects: " + Arrays.stream(Dialect.values()).map(Dialect::id).collect(Collectors.joining(", "))
                + "\n  parts (default: all that ship for the dialect):\n"
                + Arrays.stream(GatewaySchema.values()).map(p -> String.format("    %-11s %s", p.part(), p.summary()))
                        .collect(Collectors.joining("\n"));
    }

    @Override
    public int run(List<String> args, PrintStream out) {
        if (args.isEmpty() || args.get(0).equals("--help")) {
            out.println(usage());
            return args.isEmpty() ? 2 : 0;
        }
        Optional<Dialect> dialect = Arrays.stream(Dialect.values()).filter(d -> d.id().equals(args.get(0)))
                .findFirst();
        if (dialect.isEmpty()) {
            out.println("error: unknown dialect '" + args.get(0) + "'\n" + usage());
            return 2;
        }
        List<GatewaySchema> parts = new ArrayList<>();
        for (String word : args.subList(1, args.size())) {
            Optional<GatewaySchema> part = GatewaySchema.ofPart(word);
            if (part.isEmpty()) {
                out.println("error: unknown part '" + word + "'\n" + usage());
                return 2;
            }
            if (!part.get().existsFor(dialect.get())) {
                out.println("error: no " + word + " DDL ships for " + dialect.get().id());
                return 2;
            }
            parts.add(part.get());
        }
        if (parts.isEmpty()) {
            Arrays.stream(GatewaySchema.values()).filter(p -> p.existsFor(dialect.get())).forEach(parts::add);
        }
        for (GatewaySchema part : parts) {
            out.println("-- ==== " + part.part() + ": " + part.summary() + " (ddl/" + dialect.get().id() + "/"
                    + part.script() + ")");
            out.println(part.ddl(dialect.get()).strip());
            out.println();
        }
        return 0;
    }
}
