package io.legacygateway.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.ContextCustomizerFactories;

/**
 * Runs the test class against MariaDB (DatabaseServers: embedded or the machine's): {@code @OnMariaDb class MariaDbXTest extends XContractTest {}}.
 * The class gets a schema of its own; on a Spring test it is datasource {@code gateway.datasources.<dataSource>} of the
 * context.
 *
 * @see OnDatabase
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@OnDatabase(TestDatabase.MARIADB)
@ContextCustomizerFactories(LegacyDatabaseContextCustomizerFactory.class)
public @interface OnMariaDb {

    @AliasFor(annotation = OnDatabase.class)
    String[] dataSource() default "legacy";
}
