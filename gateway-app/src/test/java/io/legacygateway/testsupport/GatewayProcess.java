package io.legacygateway.testsupport;

import io.legacygateway.GatewayApplication;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code java io.legacygateway.GatewayApplication <args>} in a process of its own, as a user runs the jar: the test
 * classpath, a working directory the test chooses, output and error merged and read line by line as they come (each
 * line with the time it was read), and the JVM's class-loading log, so a test can tell what the process started
 * (a Spring context, a connection pool, a broker client) from the classes it loaded.
 */
public final class GatewayProcess {

    /** A line of output and when it was read ({@link System#nanoTime()}). */
    public record Line(long nanos, String text) {
    }

    /**
     * @param exitCode the process's exit status, or {@code null} when it was still running at the timeout (then
     *                 killed)
     * @param started  {@link System#nanoTime()} just before the process was started
     * @param ended    {@link System#nanoTime()} when it had ended (or was killed)
     * @param classes  the names of the classes the JVM loaded
     */
    public record Result(Integer exitCode, List<Line> lines, long started, long ended, List<String> classes) {

        public String output() {
            return lines.stream().map(Line::text).collect(Collectors.joining("\n"));
        }

        public double seconds() {
            return (ended - started) / 1e9;
        }

        /** The loaded classes whose names start with one of {@code prefixes}. */
        public List<String> loaded(String... prefixes) {
            return classes.stream().filter(c -> List.of(prefixes).stream().anyMatch(c::startsWith)).toList();
        }
    }

    private GatewayProcess() {
    }

    public static Result run(Path workDir, Duration timeout, String... args) throws IOException, InterruptedException {
        Running process = start(GatewayApplication.class, workDir, args);
        boolean exited = process.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        long ended = System.nanoTime();
        if (!exited) {
            process.process.destroyForcibly().waitFor();
        }
        process.reader.join(TimeUnit.SECONDS.toMillis(10));
        List<String> classes = Files.readAllLines(process.classLog).stream().map(l -> l.split(" ", 2)[0]).toList();
        process.cleanUp();
        return new Result(exited ? process.process.exitValue() : null, List.copyOf(process.lines), process.started,
                ended, classes);
    }

    /** A gateway process that runs on while the test goes on; {@link #stop()} ends it. */
    public static final class Running {
        private final Process process;
        private final Thread reader;
        private final List<Line> lines;
        private final long started;
        private final Path classLog;
        private final Path argFile;

        private Running(Process process, Thread reader, List<Line> lines, long started, Path classLog, Path argFile) {
            this.process = process;
            this.reader = reader;
            this.lines = lines;
            this.started = started;
            this.classLog = classLog;
            this.argFile = argFile;
        }

        public String output() {
            synchronized (lines) {
                return lines.stream().map(Line::text).collect(Collectors.joining("\n"));
            }
        }

        public boolean alive() {
            return process.isAlive();
        }

        public long pid() {
            return process.pid();
        }

        /**
         * Sends a signal by name ({@code STOP}, {@code CONT}, {@code KILL}) with {@code kill}: a frozen process
         * ({@code STOP}) keeps its connections open and answers nothing, as one in a long GC pause or a paused VM.
         */
        public void signal(String signal) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            if (kill.waitFor() != 0) {
                throw new IOException("kill -" + signal + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        }

        /** Whether a line of output so far contains {@code text}. */
        public boolean printed(String text) {
            synchronized (lines) {
                return lines.stream().anyMatch(l -> l.text().contains(text));
            }
        }

        /** Waits for the process to end by itself; its exit status, or {@code null} at the timeout (then killed). */
        public Integer awaitExit(Duration timeout) throws InterruptedException {
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                process.destroyForcibly().waitFor();
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
            cleanUp();
            return exited ? process.exitValue() : null;
        }

        /**
         * Stops the process (SIGTERM, then SIGKILL after 30 s) and waits for it.
         *
         * @return the names of the classes the JVM loaded
         */
        public List<String> stop() throws InterruptedException, IOException {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
            List<String> classes = Files.readAllLines(classLog).stream().map(l -> l.split(" ", 2)[0]).toList();
            cleanUp();
            return classes;
        }

        private void cleanUp() {
            try {
                Files.deleteIfExists(argFile);
                Files.deleteIfExists(classLog);
            } catch (IOException ignored) {
                // a temporary file: harmless if left
            }
        }
    }

    /**
     * Starts {@code java <main> <args>} with the test classpath in {@code workDir} and returns at once; its output is
     * read as it comes.
     */
    public static Running start(Class<?> main, Path workDir, String... args) throws IOException {
        Path classLog = Files.createTempFile("gateway-classes-", ".log");
        // the classpath in an argument file: the test classpath is longer than some command lines allow
        Path argFile = Files.createTempFile("gateway-args-", ".txt");
        Files.writeString(argFile, "-cp \"" + System.getProperty("java.class.path").replace("\\", "\\\\") + "\"\n");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "@" + argFile, "-Xlog:class+load=info:file=" + classLog + ":none", main.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
        long started = System.nanoTime();
        Process process = builder.start();
        List<Line> lines = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(new Line(System.nanoTime(), line));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "gateway-process-output");
        reader.start();
        return new Running(process, reader, lines, started, classLog, argFile);
    }
}
