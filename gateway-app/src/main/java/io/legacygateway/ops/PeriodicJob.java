package io.legacygateway.ops;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

/**
 * Work the gateway does on a schedule of its own (metric samples, retention, dead-letter depth): one daemon thread.
 * It starts when the application is ready ({@link ApplicationReadyEvent}), so a startup that fails never runs it: the
 * context's lifecycle start comes before Camel starts the routes, and a context whose refresh fails is destroyed
 * without a lifecycle stop, which left such jobs running against closed pools and brokers. It stops first when the
 * context closes (lifecycle stop, highest phase), or when its bean is destroyed. A failing run is logged and the next
 * one comes at the next interval; on stop a run in progress may finish (it is short and bounded by timeouts) for up
 * to 5 s.
 */
public abstract class PeriodicJob implements ApplicationListener<ApplicationReadyEvent>, SmartLifecycle,
        DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(PeriodicJob.class);

    private final String thread;
    private final Duration firstDelay;
    private final Duration interval;
    private final boolean startWhenReady;
    private volatile ScheduledExecutorService executor;
    private volatile boolean running;

    /**
     * @param interval       time between the end of one run and the start of the next; zero turns the job off
     * @param startWhenReady false in a command process ({@code java -jar gateway-app.jar <command>}), which runs
     *                       no routes and exits
     */
    protected PeriodicJob(String thread, Duration firstDelay, Duration interval, boolean startWhenReady) {
        this.thread = thread;
        this.firstDelay = firstDelay;
        this.interval = interval;
        this.startWhenReady = startWhenReady;
    }

    protected static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** One run, on the job's thread. */
    protected abstract void tick();

    /**
     * Runs once when the application is ready, on the thread that publishes {@link ApplicationReadyEvent} (before
     * readiness reports UP), right before the schedule starts; nothing by default. A job that must have run once
     * before the first UP does it here; the schedule starts whatever this does.
     */
    protected void whenReady() {
    }

    /** Whether the job is being stopped: a long run should end its loop. */
    protected boolean stopping() {
        return executor != null && !running;
    }

    /** Runs {@code work} soon on the job's thread; nothing when the job is not running. */
    protected void soon(Runnable work) {
        ScheduledExecutorService e = executor;
        if (e != null && running) {
            e.execute(work);
        }
    }

    /**
     * Final: a subclass that replaced it (rather than {@link #whenReady()}) never started its schedule, and its
     * gauges kept their first sample for the life of the process.
     */
    @Override
    public final void onApplicationEvent(ApplicationReadyEvent event) {
        if (startWhenReady) {
            whenReady();
            start();
        }
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        if (interval.isZero()) {
            log.info("{} is off (interval 0)", thread);
            return;
        }
        running = true;
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, thread);
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                tick();
            } catch (RuntimeException e) {
                log.warn("{} failed: {}", thread, e.toString());
            }
        }, firstDelay.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        running = false;
        ScheduledExecutorService e = executor;
        if (e != null) {
            e.shutdown();
            try {
                if (!e.awaitTermination(5, TimeUnit.SECONDS)) {
                    e.shutdownNow();
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                e.shutdownNow();
            }
        }
        executor = null;
    }

    @Override
    public void destroy() {
        stop();
    }

    /** Never started by the lifecycle processor: {@link #onApplicationEvent} starts it once the application is ready. */
    @Override
    public boolean isAutoStartup() {
        return false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
