package io.legacygateway.adapters.outbox.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The statements of one outbox store, rendered once when the store is built: each a complete SQL text with only
 * {@code ?} binds, and what each bind means, in order. A cycle never renders SQL; it supplies the values of the
 * {@link Param run-time binds} (the time, the limit, the keys) and gets the driver the same text every time.
 *
 * <p>A list bind (the batch's keys) stands in the text as {@value #LIST} and expands to one {@code ?} per value; a
 * statement with one list caches its text per list size, so that a full batch always prepares the same text.
 *
 * <p>Guaranteed: immutable; the names and texts depend only on the dialect, the mapping and the store's options
 * (golden files pin them, see {@code GoldenSqlTest}). Not guaranteed: that a name exists in every mark mode (the
 * mark mode and the mapped columns decide which statements a store has).
 */
public final class OutboxStatements {

    /** How a list bind is written in a statement's text before expansion. */
    public static final String LIST = "?...";

    /** The values a cycle or an operation supplies; everything else is a constant of the store. */
    public enum Param {
        NOW("the cycle's time"),
        LIMIT("the most rows to return"),
        AT("the time of the write"),
        PUBLISHER("the relay instance"),
        KEYS("the rows' keys", true),
        KEY_TEXTS("the rows' keys as text", true),
        AGGREGATES("the claimed aggregates", true),
        LAST_ORDER("the order of the last claimed row"),
        CLAIMED("the keys this claim holds", true),
        HELD_BACK("the aggregates whose claimed rows wait behind another relay's", true),
        KEY("the row's key"),
        KEY_TEXT("the row's key as text"),
        EVENT_ID("the row's event id"),
        STATE("RETRY or FAILED"),
        REASON("the failure's reason"),
        ATTEMPTS("the attempts counted"),
        NEXT_RETRY_AT("the time of the next retry"),
        CUTOFF("the retention cutoff"),
        WINDOW_LOW("the low end of the zero-write window"),
        WINDOW_HIGH("the commit horizon closing the zero-write window"),
        AFTER_ORDER("the order of the last row read in the window"),
        AFTER_KEY("the key of the last row read in the window");

        private final String meaning;
        private final boolean list;

        Param(String meaning) {
            this(meaning, false);
        }

        Param(String meaning, boolean list) {
            this.meaning = meaning;
            this.list = list;
        }

        public String meaning() {
            return meaning;
        }

        public boolean list() {
            return list;
        }
    }

    /**
     * One bind: a constant of the store ({@code param == null}) or a run-time value, turned into what the driver binds
     * by {@code convert} (a time to the column's type).
     */
    public record Bind(String meaning, Param param, Object constant, UnaryOperator<Object> convert) {

        public static Bind constant(String meaning, Object value) {
            return new Bind(meaning, null, value, UnaryOperator.identity());
        }

        public static Bind of(Param param) {
            return new Bind(param.meaning(), param, null, UnaryOperator.identity());
        }

        public static Bind of(Param param, String meaning, UnaryOperator<Object> convert) {
            return new Bind(meaning, param, null, convert);
        }

        /** As the golden files and {@code relay explain} print it. */
        public String describe() {
            if (param == null) {
                return meaning + " = " + (constant instanceof String s ? "'" + s + "'" : String.valueOf(constant));
            }
            return meaning + (param.list() ? " (one ? each)" : "") + " [" + param.name().toLowerCase() + "]";
        }
    }

    /** A complete statement: its text (list binds as {@value #LIST}) and its binds in the order of their marks. */
    public static final class Statement {
        private final String name;
        private final String sql;
        private final List<Bind> binds;
        private final int lists;
        private final Map<Integer, String> bySize = new ConcurrentHashMap<>();

        Statement(String name, String sql, List<Bind> binds) {
            this.name = name;
            this.sql = sql;
            this.binds = List.copyOf(binds);
            this.lists = (int) this.binds.stream().filter(b -> b.param() != null && b.param().list()).count();
            int marks = sql.replace(LIST, "").replaceAll("[^?]", "").length() + lists;
            if (marks != this.binds.size()) {
                throw new IllegalStateException("statement " + name + " has " + marks + " binds but " + binds.size()
                        + " meanings: " + sql);
            }
        }

        public String name() {
            return name;
        }

        /** The text with list binds as {@value #LIST}. */
        public String sql() {
            return sql;
        }

        public List<Bind> binds() {
            return binds;
        }

        public List<Param> params() {
            return binds.stream().map(Bind::param).filter(p -> p != null).distinct().toList();
        }

        /** The text the driver gets for these values: each list bind expanded to one {@code ?} per value. */
        public String sql(Map<Param, ?> values) {
            if (lists == 0) {
                return sql;
            }
            if (lists == 1) {
                int size = listValue(values, binds.stream().filter(b -> b.param() != null && b.param().list())
                        .findFirst().orElseThrow().param()).size();
                return bySize.computeIfAbsent(size, n -> expand(values));
            }
            return expand(values);
        }

        private String expand(Map<Param, ?> values) {
            StringBuilder out = new StringBuilder(sql.length() + 64);
            int from = 0;
            for (Bind b : binds) {
                if (b.param() == null || !b.param().list()) {
                    continue;
                }
                int at = sql.indexOf(LIST, from);
                out.append(sql, from, at).append(String.join(", ",
                        Collections.nCopies(listValue(values, b.param()).size(), "?")));
                from = at + LIST.length();
            }
            return out.append(sql, from, sql.length()).toString();
        }

        /** The values to bind, in order: constants as they are, run-time values converted, lists flattened. */
        public Object[] values(Map<Param, ?> values) {
            List<Object> out = new ArrayList<>(binds.size() + 16);
            for (Bind b : binds) {
                if (b.param() == null) {
                    out.add(b.constant());
                } else if (b.param().list()) {
                    listValue(values, b.param()).forEach(v -> out.add(b.convert().apply(v)));
                } else {
                    if (!values.containsKey(b.param())) {
                        throw new IllegalArgumentException(name + " needs a value for " + b.param());
                    }
                    out.add(b.convert().apply(values.get(b.param())));
                }
            }
            return out.toArray();
        }

        private Collection<?> listValue(Map<Param, ?> values, Param p) {
            if (!(values.get(p) instanceof Collection<?> c)) {
                throw new IllegalArgumentException(name + " needs a list of values for " + p);
            }
            return c;
        }

        /** The statement as the golden files and {@code relay explain} print it. */
        public String describe() {
            StringBuilder out = new StringBuilder("-- ").append(name).append('\n').append(sql).append('\n');
            for (int i = 0; i < binds.size(); i++) {
                out.append("--   ").append(i + 1).append(": ").append(binds.get(i).describe()).append('\n');
            }
            return out.toString();
        }
    }

    private final Map<String, Statement> statements;

    private OutboxStatements(Map<String, Statement> statements) {
        this.statements = Collections.unmodifiableMap(statements);
    }

    /** Collects statements in the order they are added (the order they are printed in). */
    static final class Builder {
        private final Map<String, Statement> statements = new LinkedHashMap<>();

        Builder add(String name, String sql, List<Bind> binds) {
            if (statements.put(name, new Statement(name, sql, binds)) != null) {
                throw new IllegalStateException("statement " + name + " added twice");
            }
            return this;
        }

        Builder add(String name, Fragment statement) {
            List<Bind> binds = new ArrayList<>();
            for (Object b : statement.binds()) {
                if (!(b instanceof Bind bind)) {
                    throw new IllegalStateException("statement " + name + " has a bind without meaning: " + b);
                }
                binds.add(bind);
            }
            return add(name, statement.sql(), binds);
        }

        OutboxStatements build() {
            return new OutboxStatements(statements);
        }
    }

    static Builder builder() {
        return new Builder();
    }

    /** The statement of that name; a missing one is a programming error of the store. */
    public Statement get(String name) {
        Statement s = statements.get(name);
        if (s == null) {
            throw new IllegalStateException("no statement " + name + " in this store; it has " + statements.keySet());
        }
        return s;
    }

    public Optional<Statement> find(String name) {
        return Optional.ofNullable(statements.get(name));
    }

    public Collection<Statement> all() {
        return statements.values();
    }

    /** Every statement, each as {@link Statement#describe()}, separated by blank lines. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (Statement s : statements.values()) {
            out.append(s.describe()).append('\n');
        }
        return out.toString();
    }
}
