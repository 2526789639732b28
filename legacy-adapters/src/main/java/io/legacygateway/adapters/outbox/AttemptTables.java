package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.sql.Dialect;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The attempt log's two tables ({@value AttemptLog#TABLE}, {@value AttemptLog#CYCLES}) as its statements name them:
 * every statement is the dialect's, with the quoted tables and {@code attempt.effective} (an attempt with its cycle's
 * finish applied) filled in. Times are bound and read as UTC, in the kind of {@code attempted_at}.
 */
final class AttemptTables {

    private final Dialect dialect;
    private final String attempts;
    private final String cycles;
    private final String effective;
    private final ColumnKind timeKind;

    AttemptTables(Dialect dialect, String attempts, String cycles, ColumnKind timeKind) {
        this.dialect = dialect;
        this.attempts = attempts;
        this.cycles = cycles;
        this.effective = dialect.sql("attempt.effective", Map.of("attempts", attempts, "cycles", cycles));
        this.timeKind = timeKind;
    }

    Dialect dialect() {
        return dialect;
    }

    ColumnKind timeKind() {
        return timeKind;
    }

    /** The dialect's statement {@code name} over these tables. */
    String sql(String name, Map<String, String> fragments) {
        Map<String, String> f = new LinkedHashMap<>(fragments);
        f.put("attempts", attempts);
        f.put("cycles", cycles);
        f.put("effective", effective);
        return dialect.sql(name, f);
    }

    String sql(String name) {
        return sql(name, Map.of());
    }

    /** {@code instant} as the time column takes it. */
    Object time(Instant instant) {
        return timeKind.bindInstant(instant, ZoneOffset.UTC);
    }
}
