package dev.opcua.spring.boot.autoconfigure.server.annotation;

import dev.opcua.spring.boot.server.annotation.OpcUaAnnotatedNodeManagers;
import dev.opcua.spring.boot.server.annotation.UaValueChangedEvent;
import dev.opcua.stack.server.OpcUaServer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationListener;

/**
 * Routes each {@link UaValueChangedEvent} to the annotated node managers, which hand the new value
 * to the server's monitored items.
 *
 * <p>The managers and the server are looked up only once every singleton exists: a bean may
 * publish while it is being created, and resolving the managers then would create the beans they
 * are made of, the publishing one among them. Signals before that point are dropped; no client can
 * monitor a value before the server started.
 */
public final class OpcUaValueChangeListener implements ApplicationListener<UaValueChangedEvent>,
        SmartInitializingSingleton {

    private static final Log log = LogFactory.getLog(OpcUaValueChangeListener.class);

    private final ObjectProvider<OpcUaAnnotatedNodeManagers> nodeManagersProvider;
    private final ObjectProvider<OpcUaServer> serverProvider;
    private volatile OpcUaAnnotatedNodeManagers nodeManagers;

    public OpcUaValueChangeListener(ObjectProvider<OpcUaAnnotatedNodeManagers> nodeManagers,
            ObjectProvider<OpcUaServer> server) {
        this.nodeManagersProvider = nodeManagers;
        this.serverProvider = server;
    }

    @Override
    public void afterSingletonsInstantiated() {
        OpcUaAnnotatedNodeManagers managers = nodeManagersProvider.getIfAvailable();
        OpcUaServer server = serverProvider.getIfUnique();
        if (managers == null || server == null) {
            log.debug("No annotated node managers or no single OpcUaServer: value change signals are ignored");
            return;
        }
        managers.connect(server.dataChanges());
        managers.connectHistory(server::historyRecorder); // set once the server started with a history store
        nodeManagers = managers;
    }

    @Override
    public void onApplicationEvent(UaValueChangedEvent event) {
        OpcUaAnnotatedNodeManagers managers = nodeManagers;
        if (managers == null) {
            if (log.isTraceEnabled()) {
                log.trace("Dropped " + event + ": the node managers are not connected to a server yet");
            }
            return;
        }
        managers.valueChanged(event);
    }

    @Override
    public boolean supportsAsyncExecution() {
        return false; // the signal means "now": read the value on the publisher's thread
    }
}
