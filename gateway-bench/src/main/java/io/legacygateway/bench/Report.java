package io.legacygateway.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one run: a line per measured path, printed as it completes and again as a table per database at the
 * end, with each gateway line as a ratio to the ceilings it is compared with.
 */
final class Report {

    /**
     * One measured path.
     *
     * @param key      how other lines name it as their ceiling, e.g. {@code pipeline b100 c1}
     * @param rssKiB   peak RSS of the bench JVM while the line ran (the gateway runs in it), or -1 when not reported
     * @param ceilings keys of the lines this one is compared with (a gateway line to its hand-written references)
     */
    record Line(String db, String key, String label, long events, double seconds, Machine.Cpu cpu, long rssKiB,
                List<String> ceilings) {

        double rate() {
            return events / seconds;
        }

        double cpuMicrosPerEvent() {
            return Machine.cpuMicrosPerEvent(cpu.busy(), events);
        }

        /**
         * The whole machine's CPU per event split into this JVM's (and of it, its JIT compiler threads'), the broker's
         * and the rest (the database's).
         */
        String cpuSplit() {
            return String.format("JVM %,.0f (JIT %,.0f), broker %,.0f, DB %,.0f",
                    Machine.cpuMicrosPerEvent(cpu.jvm(), events), Machine.cpuMicrosPerEvent(cpu.jit(), events),
                    Machine.cpuMicrosPerEvent(cpu.broker(), events), Machine.cpuMicrosPerEvent(cpu.rest(), events));
        }
    }

    private final PrintStream out;
    private final Map<String, Map<String, Line>> byDb = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    Report(PrintStream out) {
        this.out = out;
    }

    /** Records a line; of several runs of the same path (--repeat), the table keeps the fastest. */
    void add(Line line) {
        byDb.computeIfAbsent(line.db(), d -> new LinkedHashMap<>()).merge(line.key(), line,
                (old, now) -> now.rate() > old.rate() ? now : old);
        out.printf("  [%s] %-66s %,9d in %7.2f s = %,9.0f /s, %,7.0f CPU µs/event (%s)%s%n", line.db(),
                line.label(), line.events(), line.seconds(), line.rate(), line.cpuMicrosPerEvent(), line.cpuSplit(),
                line.rssKiB() < 0 ? "" : String.format(", RSS %,d MiB", line.rssKiB() / 1024));
    }

    void note(String note) {
        notes.add(note);
        out.println("  note: " + note);
    }

    void printTables() {
        for (var db : byDb.entrySet()) {
            out.println();
            out.printf("%s%n", db.getKey());
            out.printf("| %-66s | %10s | %11s | %-46s | %8s | %-40s |%n", "path", "events/s", "CPU µs/ev",
                    "of which (µs/ev)", "RSS MiB", "ratio to ceiling");
            out.printf("|%s|%s|%s|%s|%s|%s|%n", "-".repeat(68), "-".repeat(12), "-".repeat(13), "-".repeat(48),
                    "-".repeat(10), "-".repeat(42));
            for (Line l : db.getValue().values()) {
                List<String> ratios = new ArrayList<>();
                for (String c : l.ceilings()) {
                    Line ceiling = db.getValue().get(c);
                    if (ceiling != null) {
                        double r = l.rate() / ceiling.rate();
                        ratios.add(String.format("%.2f × %s", r, c));
                        if (r > 1.0 && (c.startsWith("ceiling") || c.startsWith("pipeline")
                                || c.startsWith("inbox batched"))) {
                            notes.add(db.getKey() + ": '" + l.key() + "' beat its ceiling '" + c + "' (" + String.format(
                                    "%.2f", r) + "): noise on a busy machine, or that ceiling is not a ceiling");
                        }
                    }
                }
                out.printf("| %-66s | %,10.0f | %,11.0f | %-46s | %8s | %-40s |%n", l.label(), l.rate(),
                        l.cpuMicrosPerEvent(), l.cpuSplit(), l.rssKiB() < 0 ? "" : String.format("%,d", l.rssKiB() / 1024),
                        String.join(", ", ratios));
            }
        }
        if (!notes.isEmpty()) {
            out.println();
            notes.forEach(n -> out.println("note: " + n));
        }
    }
}
