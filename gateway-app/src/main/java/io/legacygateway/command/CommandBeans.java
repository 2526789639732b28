package io.legacygateway.command;

import java.util.List;
import org.springframework.beans.factory.BeanFactory;

/**
 * What a {@link ConfiguredCommand} takes from the gateway's configuration: the beans of the context that the jar's
 * command line ({@code cli/GatewayCli}) builds from it for that one command (no web server, no routes), or instances a
 * caller gives.
 */
public interface CommandBeans {

    /**
     * The bean of {@code type}.
     *
     * @throws RuntimeException naming the type when there is none, or more than one
     */
    <T> T get(Class<T> type);

    /** The beans of a Spring bean factory (the command context, or a test's context). */
    static CommandBeans of(BeanFactory beans) {
        return new CommandBeans() {
            @Override
            public <T> T get(Class<T> type) {
                return beans.getBean(type);
            }
        };
    }

    /** The given instances, each the bean of every type it is an instance of (the first one given wins). */
    static CommandBeans given(Object... instances) {
        List<Object> beans = List.of(instances);
        return new CommandBeans() {
            @Override
            public <T> T get(Class<T> type) {
                return beans.stream().filter(type::isInstance).map(type::cast).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no " + type.getSimpleName() + " given"));
            }
        };
    }
}
