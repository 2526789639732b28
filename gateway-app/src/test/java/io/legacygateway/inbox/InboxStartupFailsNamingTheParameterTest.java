package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.legacygateway.GatewayApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** A YAML inbox route whose parameters do not fit stops the gateway at startup, naming the parameter. */
class InboxStartupFailsNamingTheParameterTest {

    @Test
    void aYamlInboxRouteWithAnEffectForAnUnacceptedTypeFailsStartup() {
        Throwable t = catchThrowable(() -> new SpringApplicationBuilder(GatewayApplication.class)
                .web(WebApplicationType.NONE).profiles("test").run(
                        "--gateway.datasources.target.url=jdbc:h2:mem:inbox-startup-test;DB_CLOSE_DELAY=-1",
                        "--gateway.datasources.target.username=sa",
                        "--gateway.datasources.target.initialize-schema=true",
                        "--camel.main.routes-include-pattern=classpath:startup-test/inbox-effect-for-unaccepted-type.yaml")
                .close());
        assertThat(t).as("startup must fail").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        assertThat(all.toString()).contains("inbox-consumer 'bad-effect' parameter 'effectSql.OrderPaid': 'OrderPaid' is"
                + " not an accepted type (accept: OrderCreated:1)");
    }

    @Test
    void aYamlInboxRouteWithTransactionModeXaOnH2FailsStartupNamingTheParameter() {
        Throwable t = catchThrowable(() -> new SpringApplicationBuilder(GatewayApplication.class)
                .web(WebApplicationType.NONE).profiles("test").run(
                        "--gateway.datasources.target.url=jdbc:h2:mem:inbox-xa-startup-test;DB_CLOSE_DELAY=-1",
                        "--gateway.datasources.target.username=sa",
                        "--gateway.datasources.target.initialize-schema=true",
                        "--camel.main.routes-include-pattern=classpath:startup-test/inbox-xa-on-h2.yaml")
                .close());
        assertThat(t).as("startup must fail").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        assertThat(all.toString()).contains("inbox-consumer 'xa-h2' parameter 'transactionMode': XA needs a database"
                + " that can prepare a transaction (PostgreSQL or MariaDB); datasource 'target' is h2");
    }

    @Test
    void aYamlInboxRouteWhoseUpcastRouteWritesFailsStartupNamingTheParameterAndTheRoute() {
        assertThat(startupFailure("inbox-upcast-writes", "inbox-upcast-route-writes.yaml"))
                .contains("inbox-consumer 'bad-upcast' parameter 'upcast.OrderCreated.1': route"
                        + " 'upcast-that-writes-too' sends to 'sql:UPDATE inbox");
    }

    @Test
    void aYamlInboxRouteWhoseUpcastDoesNotCompileFailsStartupNamingTheParameter() {
        assertThat(startupFailure("inbox-upcast-jq", "inbox-upcast-does-not-compile.yaml"))
                .contains("inbox-consumer 'bad-jq' parameter 'upcast.OrderCreated.1': 'jq:{{{' does not compile");
    }

    /** Every message of the causes of the failed start of the gateway with {@code yaml}'s routes. */
    private static String startupFailure(String database, String yaml) {
        Throwable t = catchThrowable(() -> new SpringApplicationBuilder(GatewayApplication.class)
                .web(WebApplicationType.NONE).profiles("test").run(
                        "--gateway.datasources.target.url=jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1",
                        "--gateway.datasources.target.username=sa",
                        "--gateway.datasources.target.initialize-schema=true",
                        "--camel.main.routes-include-pattern=classpath:startup-test/" + yaml)
                .close());
        assertThat(t).as("startup must fail").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        return all.toString();
    }
}
