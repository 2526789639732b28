package io.legacygateway.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The command line of {@code bench/run.sh}. */
final class Options {
    List<BenchDatabase> databases = List.of(BenchDatabase.POSTGRES, BenchDatabase.MARIADB);
    int rows = 100_000;
    List<Integer> batches = List.of(100, 500);
    /** Whether {@code --batch} was given: the latency lines run at the relay's default batch size otherwise. */
    boolean batchGiven;
    List<Integer> claimers = List.of(1, 2);
    int messages = 100_000;
    List<Integer> threads = List.of(1, 4);
    int backlogPending = 100_000;
    int backlogTable = 1_000_000;
    int warmUp = 20_000;
    boolean analyze = true;
    boolean pendingIndex;
    /** Whether the relay section adds a {@code transactionMode: XA} line after the LOCAL lines of each batch. */
    boolean xa = true;
    boolean latency;
    List<Integer> rates = List.of(1000);
    /** The latency run's parts ({@code --only relay} or {@code --only inbox} with {@code --latency}). */
    Set<String> latencySections = Set.of("relay", "inbox");
    int seconds = 30;
    /** Seconds of each relay latency line written at the rate before its measured seconds, reported apart. */
    int settle = 10;
    int repeat = 1;
    Set<String> sections = Set.of("relay", "inbox", "backlog");
    Map<String, String> relayParameters = new LinkedHashMap<>();
    Map<String, String> inboxParameters = new LinkedHashMap<>();

    static final String USAGE = """
            bench/run.sh [--db postgres|mariadb|both] [--rows N] [--batch N[,N...]] [--claimers N[,N...]]
                         [--messages N] [--sessions N[,N...]] [--quick]
                         [--only relay,inbox,backlog] [--backlog PENDING/TABLE] [--no-analyze]
                         [--repeat N] [--warm-up N] [--pending-index] [--no-xa] [--relay-param name=value]...
                         [--inbox-param name=value]...
            bench/run.sh --latency [--rate N[,N...]] [--seconds N] [--settle N] [--db ...] [--no-analyze]
                         [--only relay|inbox] [--batch N] [--relay-param pollInterval=100ms]
              --db           database(s) to measure (default both)
              --rows         outbox rows per relay line (default 100000; --quick 10000)
              --batch        batch sizes instead of 100 and 500 (e.g. 100 or 100,250,500)
              --claimers     relays (and hand-written claimers) per relay line instead of 1 and 2 (e.g. 2)
              --messages     messages per inbox line (default 100000; --quick 2000; the naive lines a quarter,
                             at most 10000)
              --sessions     sessions (threads) per inbox line instead of 1 and 4 (e.g. 4)
              --backlog      pending rows and table size of the backlog lines (default 100000/1000000;
                             --quick 10000/100000)
              --only         sections to run (default all)
              --repeat       run every section N times and keep each line's best rate (default 1)
              --warm-up      rows (messages) each path runs before it is measured, not reported (default 20000;
                             --quick 10000): the gateway's code must be compiled by the JIT before its lines
              --no-analyze   leave the outbox's statistics as the database keeps them after each prefill
                             (default: VACUUM ANALYZE / ANALYZE TABLE after each prefill)
              --pending-index
                             PostgreSQL: add a partial index holding only PENDING rows, CREATE INDEX ... ON outbox
                             (seq) WHERE status = 'PENDING' (MariaDB has no partial index: ignored there)
              --no-xa        leave out the relay's transactionMode: XA lines (default: after the LOCAL lines of
                             each batch size and claimers, one XA line with the attempt log, warmed up first;
                             needs PostgreSQL's max_prepared_transactions > 0)
              --latency      instead of the throughput lines: rows written at each --rate per second (default
                             1000; e.g. 2000,5000) for --seconds (default 30), through the gateway's relay route
                             (its timer) at the relay's default batchSize (or the first --batch), printing
                             commit -> on the queue p50/p99/max and the idle claims/s, for pollInterval as given
                             (default 100ms), also at 100ms when another is given, and on PostgreSQL for wakeUp
                             NOTIFY (trigger installed for the line) and polling with the trigger installed but
                             nobody listening; then messages sent at the same rate to a gateway inbox (4 sessions),
                             printing stored -> effect p50/p99/max. Statistics: ANALYZE after each line's warm-up
                             rows (taken while nearly nothing waits, the usual state of an outbox); --no-analyze
                             never (PostgreSQL: a table never analysed; MariaDB: STATS_AUTO_RECALC=0, its
                             statistics those of an empty table). About 4 minutes per database and rate
              --settle       seconds each relay latency line writes at --rate before its --seconds (default 10),
                             reported apart as the route's first seconds: a new route runs code paths the JIT has
                             not compiled yet, which is not the steady state the percentiles describe
              --relay-param, --inbox-param
                             extra route parameters for the gateway's relays and inbox consumers
            """;

    static Options parse(String[] args) {
        Options o = new Options();
        boolean quick = List.of(args).contains("--quick");
        if (quick) {
            o.rows = 10_000;
            o.messages = 2_000;
            o.backlogPending = 10_000;
            o.backlogTable = 100_000;
            o.warmUp = 10_000;
        }
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> {
                }
                case "--db" -> {
                    String v = value(args, ++i, a);
                    o.databases = v.equals("both") ? List.of(BenchDatabase.POSTGRES, BenchDatabase.MARIADB)
                            : List.of(BenchDatabase.parse(v));
                }
                case "--rows" -> o.rows = positive(value(args, ++i, a), a);
                case "--warm-up" -> o.warmUp = positive(value(args, ++i, a), a);
                case "--batch" -> {
                    o.batches = Arrays.stream(value(args, ++i, a).split(",")).map(v -> positive(v, a)).toList();
                    o.batchGiven = true;
                }
                case "--claimers" -> o.claimers = Arrays.stream(value(args, ++i, a).split(","))
                        .map(v -> positive(v, a)).toList();
                case "--sessions" -> o.threads = Arrays.stream(value(args, ++i, a).split(","))
                        .map(v -> positive(v, a)).toList();
                case "--messages" -> o.messages = positive(value(args, ++i, a), a);
                case "--backlog" -> {
                    String[] v = value(args, ++i, a).split("/");
                    if (v.length != 2) {
                        throw new IllegalArgumentException(a + ": PENDING/TABLE, e.g. 100000/1000000");
                    }
                    o.backlogPending = positive(v[0], a);
                    o.backlogTable = positive(v[1], a);
                    if (o.backlogTable < o.backlogPending) {
                        throw new IllegalArgumentException(a + ": the table must hold at least the pending rows");
                    }
                }
                case "--only" -> {
                    o.sections = Set.copyOf(List.of(value(args, ++i, a).split(",")));
                    o.latencySections = o.sections;
                }
                case "--no-analyze" -> o.analyze = false;
                case "--pending-index" -> o.pendingIndex = true;
                case "--no-xa" -> o.xa = false;
                case "--latency" -> o.latency = true;
                case "--repeat" -> o.repeat = positive(value(args, ++i, a), a);
                case "--rate" -> o.rates = Arrays.stream(value(args, ++i, a).split(","))
                        .map(v -> positive(v, a)).toList();
                case "--seconds" -> o.seconds = positive(value(args, ++i, a), a);
                case "--settle" -> {
                    String v = value(args, ++i, a);
                    o.settle = v.equals("0") ? 0 : positive(v, a);
                }
                case "--relay-param" -> put(o.relayParameters, value(args, ++i, a), a);
                case "--inbox-param" -> put(o.inboxParameters, value(args, ++i, a), a);
                case "--help", "-h" -> {
                    System.out.print(USAGE);
                    System.exit(0);
                }
                default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
            }
        }
        for (String s : o.sections) {
            if (!List.of("relay", "inbox", "backlog").contains(s)) {
                throw new IllegalArgumentException("--only: '" + s + "' is not relay, inbox or backlog");
            }
        }
        if (o.latency) {
            if (o.latencySections.contains("backlog")) {
                throw new IllegalArgumentException("--only backlog: the latency run has no backlog line;"
                        + " with --latency, --only takes relay or inbox");
            }
            o.sections = Set.of(); // the latency lines instead of the throughput lines
        }
        return o;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    private static int positive(String v, String option) {
        try {
            int n = Integer.parseInt(v.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + ": '" + v + "' is not a positive number");
    }

    private static void put(Map<String, String> parameters, String v, String option) {
        int eq = v.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException(option + ": name=value, got '" + v + "'");
        }
        parameters.put(v.substring(0, eq), v.substring(eq + 1));
    }
}
