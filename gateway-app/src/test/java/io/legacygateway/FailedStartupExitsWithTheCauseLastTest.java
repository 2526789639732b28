package io.legacygateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.GatewayProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway whose startup fails (a relay route mapping a column the table lacks, found when Camel starts the routes,
 * after the context's lifecycle has started) ends its process with a non-zero status soon after the failure, and the
 * last ERROR line names the cause. It used to linger ~60 s: the periodic jobs (metrics sampler, retention, dead-letter
 * depth) had been started with the lifecycle, a context whose refresh fails is destroyed without a lifecycle stop, and
 * they went on running against the closed pools and broker (whose client threads kept the JVM alive), logging failures
 * after the cause. Now the jobs start only when the application is ready and {@code main} exits after a failed start.
 */
class FailedStartupExitsWithTheCauseLastTest {

    static final String CAUSE = "outbox-relay 'bad-mapping' parameter 'payloadColumn': column 'body' does not exist in"
            + " table 'OUTBOX'";

    @TempDir
    Path workDir;

    @Test
    void aStartupThatFailsExitsNonZeroSoonAfterWithTheCauseOnTheLastErrorLine() throws Exception {
        GatewayProcess.Result run = GatewayProcess.run(workDir, Duration.ofSeconds(150),
                "--spring.profiles.active=test",
                "--gateway.datasources.legacy.url=jdbc:h2:mem:failed-startup;DB_CLOSE_DELAY=-1",
                "--gateway.datasources.legacy.username=sa",
                "--gateway.datasources.legacy.initialize-schema=true",
                // the dead-letter depth sampler's first run is immediate: it reaches the broker before the failure
                "--gateway.dead-letters.depth-interval=1s",
                "--camel.main.routes-include-pattern=classpath:startup-test/relay-missing-column.yaml");
        String output = run.output();

        List<GatewayProcess.Line> errors = run.lines().stream().filter(l -> l.text().contains(" ERROR ")).toList();
        assertThat(errors).as(output).isNotEmpty();
        GatewayProcess.Line failure = errors.get(0);
        double afterFailure = (run.ended() - failure.nanos()) / 1e9;
        System.out.printf("Failed startup: exit %s %.2f s after the first ERROR line (%.2f s in all)%n",
                run.exitCode(), afterFailure, run.seconds());

        assertThat(run.exitCode()).as("exit status (null: still running after 150 s)\n" + output).isNotNull()
                .isNotZero();
        assertThat(errors.get(errors.size() - 1).text()).as(output)
                .contains("The gateway did not start: ").contains(CAUSE);
        assertThat(output).as("no periodic job ran").doesNotContain("ops.PeriodicJob")
                .doesNotContain("DeadLetterDepthSampler").doesNotContain("RetentionJob");
        // generous for a loaded machine: the process used to stay ~60 s, it now ends in about one
        assertThat(afterFailure).as("seconds from the failure to the end of the process").isLessThan(15);
    }
}
