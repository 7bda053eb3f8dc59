package dev.opcua.stack.pubsub.transport.udp;

import dev.opcua.stack.pubsub.transport.TransportException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which network interface and local address a UDP transport uses (Part 14, 7.3.2: a multicast group is joined on
 * one interface): the configured one by name or address, else the first one up that does multicast.
 */
final class UdpInterfaces {

    private static final Logger log = LoggerFactory.getLogger(UdpTransport.class);

    private UdpInterfaces() {
    }

    /** The configured interface by name or by one of its addresses, or null when none is configured. */
    static NetworkInterface configured(UdpSettings settings, InetAddress family) throws SocketException, UnknownHostException {
        String name = settings.networkInterface().orElse(null);
        if (name == null) {
            return null;
        }
        NetworkInterface nif = NetworkInterface.getByName(name);
        if (nif == null && (Character.digit(name.charAt(0), 16) >= 0 || name.indexOf(':') >= 0)) {
            try {
                nif = NetworkInterface.getByInetAddress(InetAddress.getByName(name));
            } catch (UnknownHostException e) {
                nif = null;
            }
        }
        if (nif == null) {
            throw new TransportException("there is no network interface '" + name + "'", null);
        }
        if (!nif.isUp()) {
            throw new TransportException("the network interface " + nif.getName() + " is down", null);
        }
        if (addressOf(nif, family) == null) {
            throw new TransportException("the network interface " + nif.getName() + " has no "
                    + (family instanceof Inet6Address ? "IPv6" : "IPv4") + " address", null);
        }
        return nif;
    }

    /** The first interface that is up, not loopback, does multicast and has an address of the family. */
    static NetworkInterface defaultMulticast(String url, InetAddress family) throws SocketException {
        NetworkInterface loopback = null;
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nif.isUp() || addressOf(nif, family) == null) {
                continue;
            }
            if (nif.isLoopback()) {
                loopback = loopback == null ? nif : loopback;
            } else if (nif.supportsMulticast()) {
                log.info("UDP transport {}: no network interface configured, using {} for multicast", url,
                        nif.getName());
                return nif;
            }
        }
        if (loopback == null) {
            throw new TransportException("no network interface is up for multicast; configure one", null);
        }
        log.info("UDP transport {}: no network interface configured and none but {} is up; using it for multicast",
                url, loopback.getName());
        return loopback;
    }

    static InetAddress addressOf(NetworkInterface nif, InetAddress family) {
        for (InetAddress a : Collections.list(nif.getInetAddresses())) {
            if ((a instanceof Inet6Address) == (family instanceof Inet6Address)) {
                return a;
            }
        }
        return null;
    }

    static InetSocketAddress wildcard(InetAddress family, int port) throws UnknownHostException {
        return new InetSocketAddress(InetAddress.getByName(family instanceof Inet6Address ? "::" : "0.0.0.0"), port);
    }
}
