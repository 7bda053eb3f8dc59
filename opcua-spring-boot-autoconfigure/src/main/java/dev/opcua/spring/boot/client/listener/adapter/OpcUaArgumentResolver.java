package dev.opcua.spring.boot.client.listener.adapter;

import dev.opcua.spring.boot.client.listener.ListenerNotification;

/**
 * One link of the chain that decides, at start-up, how each parameter of a listener method is fed.
 * The chain asks its resolvers in order; the first that answers feeds the parameter. A parameter no
 * resolver feeds fails start-up with an error naming the bean, method and parameter.
 *
 * <p>Applications add their own resolvers ahead of the defaults
 * ({@link OpcUaListenerMethodAdapter#defaultResolvers()}): as beans, with auto-configuration.
 */
@FunctionalInterface
public interface OpcUaArgumentResolver {

    /** @return how to feed the parameter, or null when this resolver cannot */
    ArgumentSource resolverFor(ListenerParameter parameter);

    /** Makes one parameter's argument from each notification. */
    interface ArgumentSource {

        /**
         * @throws dev.opcua.spring.boot.client.listener.OpcUaListenerArgumentException when the
         *         notification does not fit the parameter: an error of this delivery only
         */
        Object argument(ListenerNotification notification);

        /**
         * Whether this parameter takes a value: the value of a data change (one parameter may), or
         * the next selected field of an event.
         */
        default boolean takesValue() {
            return false;
        }
    }
}
