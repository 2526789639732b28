package io.legacygateway.adapters.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL statements kept in a resource file, one per {@code -- name: <name>} block.
 *
 * <p>Lines starting with {@code --} are comments. Statements may contain {@code {placeholder}}s, which
 * {@link #render} replaces with quoted identifiers or with other named fragments; values are always {@code ?} binds.
 */
final class NamedStatements {

    private static final Pattern NAME = Pattern.compile("^--\\s*name:\\s*(\\S+)\\s*$");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9.]*)}");

    private final Map<String, String> statements;

    private NamedStatements(Map<String, String> statements) {
        this.statements = statements;
    }

    static NamedStatements load(String resource, NamedStatements parent) {
        Map<String, String> all = new LinkedHashMap<>(parent == null ? Map.of() : parent.statements);
        all.putAll(parse(resource));
        return new NamedStatements(Map.copyOf(all));
    }

    private static Map<String, String> parse(String resource) {
        String text;
        try (InputStream in = NamedStatements.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("SQL resource missing from the classpath: " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> parsed = new LinkedHashMap<>();
        String current = null;
        StringBuilder sql = new StringBuilder();
        for (String line : text.split("\n")) {
            Matcher m = NAME.matcher(line.strip());
            if (m.matches()) {
                if (current != null) {
                    parsed.put(current, sql.toString().strip());
                }
                current = m.group(1);
                sql.setLength(0);
            } else if (!line.strip().startsWith("--") && current != null) {
                sql.append(line.strip()).append(' ');
            }
        }
        if (current != null) {
            parsed.put(current, sql.toString().strip());
        }
        return parsed;
    }

    boolean has(String name) {
        return statements.containsKey(name);
    }

    String raw(String name) {
        String sql = statements.get(name);
        if (sql == null) {
            throw new IllegalArgumentException("no statement named '" + name + "'");
        }
        return sql;
    }

    /** Replaces each {@code {key}} with its value; an unknown placeholder is a programming error. */
    String render(String name, Map<String, String> fragments) {
        Matcher m = PLACEHOLDER.matcher(raw(name));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = fragments.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("statement '" + name + "' needs {" + m.group(1) + "}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
