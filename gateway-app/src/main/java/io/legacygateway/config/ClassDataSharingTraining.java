package io.legacygateway.config;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * The class data sharing archive's training start only (the poms' package phase, -Pimage's archive): the gateway exits
 * once it is ready, so that the archive dumped at exit ({@code -XX:ArchiveClassesAtExit}) holds the classes of the
 * whole start (web server, broker, routes), not only those loaded before the context's refresh. Registered by
 * {@code main} ({@code GatewayApplication.run}) when the JVM system property {@value #PROPERTY} is {@code true}; a
 * class of its own so that a command's start never loads the context's classes.
 */
public final class ClassDataSharingTraining implements ApplicationListener<ApplicationReadyEvent> {

    /** The JVM system property that asks for a training start (outside {@code gateway.*}, which is bound strictly). */
    public static final String PROPERTY = "io.legacygateway.cds.training";

    @Override
    public void onApplicationEvent(ApplicationReadyEvent ready) {
        System.exit(SpringApplication.exit(ready.getApplicationContext()));
    }
}
