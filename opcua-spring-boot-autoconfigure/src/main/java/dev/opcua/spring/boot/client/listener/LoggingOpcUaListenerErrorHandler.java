package dev.opcua.spring.boot.client.listener;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The default {@link OpcUaListenerErrorHandler}: logs the error with the listener's id (bean and
 * method) and node; a failed conversion of a value without its stack trace, which says nothing more.
 */
public class LoggingOpcUaListenerErrorHandler implements OpcUaListenerErrorHandler {

    private static final Log log = LogFactory.getLog(LoggingOpcUaListenerErrorHandler.class);

    @Override
    public void handleError(OpcUaListener listener, ListenerNotification notification, Throwable error) {
        String message = "OPC UA listener " + listener.id() + " (" + listener.endpoint().describeSource()
                + ") failed on " + notification + " (error " + listener.errors() + " of this listener)";
        if (error instanceof OpcUaListenerArgumentException) {
            log.warn(message + ": " + error.getMessage());
        } else {
            log.error(message, error);
        }
    }
}
