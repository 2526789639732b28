package io.legacygateway.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What the whole machine spent, read from Linux's {@code /proc}: busy CPU time from {@code /proc/stat} (user, nice,
 * system, irq and softirq jiffies of all cores; idle, iowait and steal are not work) and the resident set of this JVM
 * from {@code /proc/self/status}. Busy time counts every process on the machine, the database and the broker included,
 * and anything else that runs at the same time: on a shared machine it is an upper bound of the path's own cost.
 */
final class Machine {

    private static final Path STAT = Path.of("/proc/stat");
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final long CLK_TCK = clockTicks();

    private Machine() {
    }

    /** Busy jiffies of all cores since boot. */
    static long busyJiffies() {
        try {
            String[] f = Files.readAllLines(STAT).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal ...
            return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Busy jiffies of the whole machine and of two of its processes: this JVM (the bench, and the gateway in it) and
     * the broker (the Java process of an Artemis instance), from each process's {@code /proc/<pid>/stat} (user + system time,
     * GC and JIT threads included); what is left of the machine's figure is the database's, on a quiet machine (its
     * backends come and go with the connections, so they are not read one by one). Also the CPU time of this JVM's
     * JIT compiler threads ({@code /proc/self/task}): a line that runs while they compile pays for it, so the bench
     * warms each path up first and prints what is left.
     */
    record Cpu(long busy, long jvm, long broker, long jit) {

        static Cpu now() {
            long jvm = 0;
            long broker = 0;
            long self = ProcessHandle.current().pid();
            try (var procs = Files.newDirectoryStream(Path.of("/proc"), Machine::numbered)) {
                for (Path proc : procs) {
                    Stat stat = Stat.of(proc);
                    if (stat == null) {
                        continue; // ended since the listing
                    }
                    if (Long.parseLong(proc.getFileName().toString()) == self) {
                        jvm += stat.jiffies;
                    } else if (stat.comm.equals("java") && isBroker(proc)) {
                        broker += stat.jiffies;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Cpu(busyJiffies(), jvm, broker, jitJiffies());
        }

        Cpu since(Cpu before) {
            return new Cpu(busy - before.busy, jvm - before.jvm, broker - before.broker, jit - before.jit);
        }

        /** The machine's busy time that is neither this JVM's nor the broker's: the database's, on a quiet machine. */
        long rest() {
            return Math.max(0, busy - jvm - broker);
        }
    }

    /** Whether the process runs an Artemis broker instance (its command line sets {@code artemis.instance}). */
    private static boolean isBroker(Path proc) {
        try {
            return new String(Files.readAllBytes(proc.resolve("cmdline"))).contains("-Dartemis.instance=");
        } catch (IOException gone) {
            return false;
        }
    }

    /** CPU jiffies of this JVM's JIT compiler threads ({@code /proc/self/task}). */
    static long jitJiffies() {
        long jit = 0;
        try (var threads = Files.newDirectoryStream(Path.of("/proc/self/task"), Machine::numbered)) {
            for (Path thread : threads) {
                Stat stat = Stat.of(thread);
                if (stat != null && stat.comm.contains("CompilerThre")) { // "C2 CompilerThre" (15 characters)
                    jit += stat.jiffies;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jit;
    }

    static double seconds(long jiffies) {
        return (double) jiffies / CLK_TCK;
    }

    private static boolean numbered(Path p) {
        return p.getFileName().toString().chars().allMatch(Character::isDigit);
    }

    /** A process's or thread's name and user + system jiffies. */
    private record Stat(String comm, long jiffies) {
        static Stat of(Path dir) {
            String stat;
            try {
                stat = Files.readString(dir.resolve("stat"));
            } catch (IOException gone) {
                return null;
            }
            // pid (comm) state ppid ...: utime and stime are the 12th and 13th fields after the comm's ')'
            int close = stat.lastIndexOf(')');
            String[] f = stat.substring(close + 2).split(" ");
            return new Stat(stat.substring(stat.indexOf('(') + 1, close), Long.parseLong(f[11]) + Long.parseLong(f[12]));
        }
    }

    /** CPU microseconds per event of the whole machine for a busy-jiffies delta. */
    static double cpuMicrosPerEvent(long jiffies, long events) {
        return events == 0 ? Double.NaN : jiffies * 1e6 / CLK_TCK / events;
    }

    /** This JVM's resident set in KiB ({@code VmRSS}). */
    static long rssKiB() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
            return -1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String describe() {
        return Runtime.getRuntime().availableProcessors() + " cores, load average " + loadAverage()
                + ", CLK_TCK " + CLK_TCK;
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100; // USER_HZ of every mainstream Linux build
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }

    /** Samples this JVM's RSS while a measurement runs and keeps the largest value. */
    static final class RssPeak implements AutoCloseable {
        private final Thread sampler;
        private volatile long peak = rssKiB();
        private volatile boolean running = true;

        RssPeak() {
            sampler = new Thread(() -> {
                while (running) {
                    peak = Math.max(peak, rssKiB());
                    try {
                        Thread.sleep(200); // a sampling period, not a wait for a condition
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "bench-rss");
            sampler.setDaemon(true);
            sampler.start();
        }

        long peakKiB() {
            return Math.max(peak, rssKiB());
        }

        @Override
        public void close() {
            running = false;
            sampler.interrupt();
        }
    }
}
