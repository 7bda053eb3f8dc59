package dev.opcua.stack.pubsub.transport.mqtt;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where the broker is, parsed from the URL of a PubSubConnection's address (Part 14, 7.3.5.1, e.g.
 * {@code mqtts://broker.example.com:8883}). {@code mqtt://} and {@code tcp://} are plain TCP (default port 1883),
 * {@code mqtts://} and {@code ssl://} TLS (default port 8883); the tcp and ssl spellings are those of the Paho
 * clients, which many configurations use.
 *
 * @param url the URL as given
 * @param host the host name or address literal (IPv6 without brackets)
 * @param port the TCP port
 * @param tls whether the connection is TLS
 */
record BrokerAddress(String url, String host, int port, boolean tls) {

    static final int DEFAULT_PORT = 1883;
    static final int DEFAULT_TLS_PORT = 8883;
    private static final String ACCEPTED = "mqtt:// or tcp:// (plain, default port 1883) and mqtts:// or ssl:// (TLS,"
            + " default port 8883)";

    static BrokerAddress parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("an MQTT broker URL is required (" + ACCEPTED + "), was '" + url + "'");
        }
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("invalid MQTT broker URL '" + url + "': " + e.getMessage(), e);
        }
        String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean tls;
        if ("mqtt".equals(scheme) || "tcp".equals(scheme)) {
            tls = false;
        } else if ("mqtts".equals(scheme) || "ssl".equals(scheme)) {
            tls = true;
        } else {
            throw new IllegalArgumentException("unsupported MQTT broker URL '" + url + "': the scheme must be "
                    + ACCEPTED + (uri.getScheme() == null ? "" : ", not " + uri.getScheme() + "://")
                    + " (WebSocket is not supported)");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("invalid MQTT broker URL '" + url + "': no host name");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("invalid MQTT broker URL '" + url + "': give the user name and password"
                    + " in the settings, not in the URL");
        }
        String path = uri.getRawPath();
        if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("invalid MQTT broker URL '" + url + "': only scheme, host and port are"
                    + " allowed");
        }
        int port = uri.getPort() == -1 ? (tls ? DEFAULT_TLS_PORT : DEFAULT_PORT) : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("invalid MQTT broker URL '" + url + "': port " + port
                    + " is not 1..65535");
        }
        return new BrokerAddress(url, host, port, tls);
    }
}
