package dev.opcua.stack.server.subscriptions;

/** Creates the {@link ItemContainer} of each new subscription. */
@FunctionalInterface
public interface ItemContainerFactory {

    ItemContainer create(ItemOwner owner);
}
