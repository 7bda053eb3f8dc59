package dev.opcua.stack.server.transport;

/**
 * The server could not listen on its address and port: taken by another process, not an address of
 * this host, or a privileged port. The cause is the operating system's error.
 */
public final class UaTcpBindException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String bindAddress;
    private final int port;

    public UaTcpBindException(String bindAddress, int port, Throwable cause) {
        super("could not bind " + bindAddress + ":" + port + (cause == null || cause.getMessage() == null ? ""
                : ": " + cause.getMessage()), cause);
        this.bindAddress = bindAddress;
        this.port = port;
    }

    /** The address the server tried to listen on. */
    public String bindAddress() {
        return bindAddress;
    }

    /** The port the server tried to listen on. */
    public int port() {
        return port;
    }
}
