package io.legacygateway.adapters.outbox.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A piece of SQL rendered from the dialect's named statements together with its {@code ?} binds, in order. Conditions
 * are composed from fragments so that text and binds can never drift apart; {@code OutboxConditions} composes them
 * once, when a store renders its {@link OutboxStatements}, with {@link OutboxStatements.Bind}s as binds, never in a
 * cycle.
 */
public record Fragment(String sql, List<Object> binds) {

    public Fragment {
        binds = Collections.unmodifiableList(new ArrayList<>(binds));
    }

    public static Fragment of(String sql, Object... binds) {
        return new Fragment(sql, Arrays.asList(binds));
    }

    public Fragment and(Fragment other) {
        return join(" AND ", other);
    }

    public Fragment or(Fragment other) {
        return join(" OR ", other);
    }

    public Fragment not() {
        return new Fragment("NOT (" + sql + ")", binds);
    }

    Fragment parenthesised() {
        return new Fragment("(" + sql + ")", binds);
    }

    private Fragment join(String operator, Fragment other) {
        List<Object> all = new ArrayList<>(binds);
        all.addAll(other.binds);
        // parenthesised as a whole: a fragment is spliced into statements next to other conditions
        return new Fragment("((" + sql + ")" + operator + "(" + other.sql + "))", all);
    }
}
