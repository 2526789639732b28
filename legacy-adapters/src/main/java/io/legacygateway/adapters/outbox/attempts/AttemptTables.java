package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.sql.Dialect;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The attempt log's tables ({@value AttemptLog#TABLE}, {@value AttemptLog#CYCLES}, and {@value AttemptLog#PACKS} where
 * the log is packed) as its statements name them: every statement is the dialect's, with the quoted tables and
 * {@code attempt.effective} (an attempt with its cycle's finish applied; {@code attempt.packed.effective} when packed)
 * filled in. Times are bound and read as UTC, in the kind of {@code attempted_at}.
 */
final class AttemptTables {

    private final Dialect dialect;
    private final String attempts;
    private final String cycles;
    /** The quoted packs table, or {@code null}: the log writes one row per attempt. */
    private final String packs;
    private final String effective;
    private final ColumnKind timeKind;

    /** @param packs the quoted packs table, or {@code null} for a log of one row per attempt */
    AttemptTables(Dialect dialect, String attempts, String cycles, String packs, ColumnKind timeKind) {
        this.dialect = dialect;
        this.attempts = attempts;
        this.cycles = cycles;
        this.packs = packs;
        this.effective = packs == null
                ? dialect.sql("attempt.effective", Map.of("attempts", attempts, "cycles", cycles))
                : dialect.sql("attempt.packed.effective", Map.of("attempts", attempts, "cycles", cycles, "packs", packs));
        this.timeKind = timeKind;
    }

    /** Whether a cycle's attempts are one row of the packs table. */
    boolean packed() {
        return packs != null;
    }

    /** The quoted attempts table, as {@code attempt.packed.insert} binds it to find its identity sequence. */
    String attempts() {
        return attempts;
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
        if (packs != null) {
            f.put("packs", packs);
        }
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
