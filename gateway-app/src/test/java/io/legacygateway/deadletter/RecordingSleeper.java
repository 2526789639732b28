package io.legacygateway.deadletter;

import io.legacygateway.testsupport.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Instead of sleeping, records the wait and moves the pinned clock by it: pacing is counted, not timed. */
final class RecordingSleeper implements RedeliveryPace.Sleeper {

    private final MutableClock clock;
    private final List<Duration> waits = new CopyOnWriteArrayList<>();

    RecordingSleeper(MutableClock clock) {
        this.clock = clock;
    }

    @Override
    public void sleep(Duration duration) {
        waits.add(duration);
        clock.advance(duration);
    }

    List<Duration> waits() {
        return List.copyOf(waits);
    }

    void reset() {
        waits.clear();
    }
}
