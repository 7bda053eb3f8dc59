package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * This server's place in a non-transparent redundant server set (Part 4, 6.6.2.4): the failover mode, this
 * server's ServerUri and the other servers of the set. Given to {@code OpcUaServer.Builder.redundancy(...)}; the
 * Server object then publishes them (Part 5, 6.3.7 ServerRedundancyType, 6.3.9 NonTransparentRedundancyType:
 * RedundancySupport, ServerUriArray, RedundantServerArray).
 *
 * <p>Checked here: a mode other than None lists at least one partner, None lists none, no two partners share a
 * ServerUri or an endpoint URL. Checked by the builder, which knows the ApplicationUri: the ServerUri is the ApplicationUri (Part 4, 6.6.2.4.1:
 * the ServerUriArray holds ApplicationUris), no partner is this server itself, and HotAndMirrored has a
 * {@link SessionStateStore}.
 *
 * @param mode the failover mode (RedundancySupport)
 * @param serverUri this server's ServerUri; null for "the ApplicationUri", which is what it must be anyway
 * @param partners the other servers of the set, in the order ServerUriArray lists them after this one
 */
public record RedundancySettings(RedundancyMode mode, String serverUri, List<RedundancyPartner> partners) {

    /** No redundancy: a stand-alone server (RedundancySupport NONE). */
    public static final RedundancySettings NONE = new RedundancySettings(RedundancyMode.None, null, List.of());

    /**
     * @throws InvalidSettingException naming {@code
     *     redundancySettings.partners} (none for a redundant mode, some for None, a duplicate)
     */
    public RedundancySettings {
        Objects.requireNonNull(mode, "mode");
        partners = List.copyOf(Objects.requireNonNull(partners, "partners"));
        if (mode == RedundancyMode.None && !partners.isEmpty()) {
            throw new InvalidSettingException("redundancySettings.partners", partners,
                    "must be empty when the mode is None; choose Cold, Warm or Hot to form a redundant set");
        }
        if (mode != RedundancyMode.None && partners.isEmpty()) {
            throw new InvalidSettingException("redundancySettings.partners", partners,
                    "must name at least one partner (ServerUri and endpoint URL) for mode " + mode
                            + ": a redundant server set has two servers or more");
        }
        Set<String> uris = new HashSet<>();
        Set<String> urls = new HashSet<>();
        for (RedundancyPartner partner : partners) {
            Objects.requireNonNull(partner, "partner");
            if (!uris.add(partner.serverUri())) {
                throw new InvalidSettingException("redundancySettings.partners", partner.serverUri(),
                        "must name each partner once; ServerUri " + partner.serverUri() + " is listed twice");
            }
            if (!urls.add(partner.endpointUrl())) {
                throw new InvalidSettingException("redundancySettings.partners", partner.endpointUrl(),
                        "must give each partner its own endpoint; " + partner.endpointUrl() + " is listed twice");
            }
        }
        if (serverUri != null && serverUri.isBlank()) {
            throw new InvalidSettingException("redundancySettings.serverUri", serverUri,
                    "must be this server's ApplicationUri, or null for it");
        }
    }

    /** A redundant set of {@code mode} with {@code partners}, this server's ServerUri being its ApplicationUri. */
    public static RedundancySettings of(RedundancyMode mode, RedundancyPartner... partners) {
        return new RedundancySettings(mode, null, List.of(partners));
    }

    /**
     * Checks these settings against this server's ApplicationUri and gives them with the ServerUri filled in.
     *
     * @throws InvalidSettingException naming {@code redundancySettings.serverUri} when it is not the
     *     ApplicationUri, or {@code redundancySettings.partners} when a partner is this server itself
     */
    public RedundancySettings forServer(String applicationUri) {
        if (serverUri != null && !serverUri.equals(applicationUri)) {
            throw new InvalidSettingException("redundancySettings.serverUri", serverUri,
                    "must be this server's ApplicationUri " + applicationUri
                            + " (Part 4, 6.6.2.4.1: ServerUriArray lists ApplicationUris)");
        }
        for (RedundancyPartner partner : partners) {
            if (partner.serverUri().equals(applicationUri)) {
                throw new InvalidSettingException("redundancySettings.partners", partner.serverUri(),
                        "must not include this server itself: partner ServerUri " + partner.serverUri()
                                + " is this server's own ApplicationUri (a pair configured with itself); each"
                                + " server of the set needs its own ApplicationUri");
            }
        }
        return new RedundancySettings(mode, applicationUri, partners);
    }

    /** This server's ServerUri, then the partners' (Part 5, 6.3.9: the ServerUriArray contains the local server). */
    public List<String> serverUris(String ownUri) {
        List<String> uris = new ArrayList<>(partners.size() + 1);
        uris.add(serverUri == null ? ownUri : serverUri);
        partners.forEach(p -> uris.add(p.serverUri()));
        return uris;
    }
}
