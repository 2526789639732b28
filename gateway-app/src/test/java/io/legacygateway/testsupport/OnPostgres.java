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
 * Runs the test class against PostgreSQL (DatabaseServers: embedded or the machine's): {@code @OnPostgres class PostgresXTest extends XContractTest
 * {}}. The class gets a schema of its own; on a Spring test it is datasource {@code gateway.datasources.<dataSource>}
 * of the context.
 *
 * @see OnDatabase
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@OnDatabase(TestDatabase.POSTGRES)
@ContextCustomizerFactories(LegacyDatabaseContextCustomizerFactory.class)
public @interface OnPostgres {

    @AliasFor(annotation = OnDatabase.class)
    String[] dataSource() default "legacy";
}
