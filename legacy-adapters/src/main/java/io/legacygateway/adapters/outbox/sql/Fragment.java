package io.legacygateway.adapters.outbox.sql;

import io.legacygateway.adapters.outbox.store.OutboxConditions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A piece of SQL rendered from the dialect's named statements together with its {@code ?} binds, in order. Conditions
 * are composed from fragments so that text and binds can never drift apart; {@link OutboxConditions} composes them
 * once, when a store renders its {@link OutboxStatements}, with {@link OutboxStatements.Bind}s as binds, never in a
 * cycle.
 */
record Fragment(String sql, List<Object> binds) {

    Fragment {
        binds = Collections.unmodifiableList(new ArrayList<>(binds));
    }

    static Fragment of(String sql, Object... binds) {
        return new Fragment(sql, Arrays.asList(binds));
    }

    Fragment and(Fragment other) {
        return join(" AND ", other);
    }

    Fragment or(Fragment other) {
        return join(" OR ", other);
    }

    Fragment not() {
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
