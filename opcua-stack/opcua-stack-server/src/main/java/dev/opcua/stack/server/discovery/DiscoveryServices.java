package dev.opcua.stack.server.discovery;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.FindServersResponse;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.core.transport.EndpointUrl;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The Discovery Service Set of a server (Part 4, 5.4): FindServers (5.4.2) and GetEndpoints (5.4.4),
 * answered from the server's {@link ApplicationDescription} and {@link EndpointDescription}s, prepared
 * once: discovery needs no session and "should minimise processing".
 *
 * <ul>
 *   <li>GetEndpoints returns the endpoints that support one of the requested transport profiles (all
 *       when none is requested; a profile's query string is ignored, Part 4 v1.05), empty when none
 *       matches. FindServers returns this server's description when the serverUris are empty or name
 *       its ApplicationUri, else nothing.</li>
 *   <li>With {@code useRequestHostName} (the default) the URLs returned carry the host name from the
 *       request's EndpointUrl, so that they are "accessible to the Client via the provided URL" (Part
 *       4, 5.4.2); the port and path stay the configured ones. A request without a usable URL gets
 *       the configured URLs.</li>
 *   <li>LocaleIds are ignored: the application name has one locale.</li>
 *   <li>Every endpoint's {@code server} field is the server's ApplicationDescription, whose
 *       discoveryUrls default to the endpoint URLs.</li>
 *   <li>Endpoints built from URLs: one per URL and {@link EndpointSecurity} pair (Part 4, 7.14), with
 *       the server certificate except on None endpoints that need none, the pair's security level, and
 *       user token policies per endpoint ({@link Builder#userTokenTypes}, Part 4, 7.42).</li>
 * </ul>
 */
public final class DiscoveryServices {

    /**
     * The UA TCP, UA Secure Conversation, UA Binary transport profile (Part 7). The full URI ends in
     * {@code uabinary}; clients such as Eclipse Milo ask GetEndpoints for exactly this one.
     */
    public static final String TRANSPORT_PROFILE_UATCP = "http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary";

    /** Anonymous user identity, no user token security. */
    public static final UserTokenPolicy ANONYMOUS = new UserTokenPolicy("anonymous", UserTokenType.Anonymous, null,
            null, null);

    /** The policy a server falls back to for user tokens on None endpoints when it offers no other. */
    private static final SecurityPolicy DEFAULT_TOKEN_POLICY = SecurityPolicy.Basic256Sha256;

    private final ApplicationDescription application;
    private final List<EndpointDescription> endpoints;
    private final boolean useRequestHostName;

    private final List<ApplicationDescription> redundantServers;

    private DiscoveryServices(ApplicationDescription application, List<EndpointDescription> endpoints,
            boolean useRequestHostName, List<ApplicationDescription> redundantServers) {
        this.application = application;
        this.endpoints = endpoints;
        this.useRequestHostName = useRequestHostName;
        this.redundantServers = redundantServers;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * An endpoint with SecurityPolicy None, mode None, the UA TCP binary profile and security level 0,
     * the level Part 4, 7.14 gives endpoints kept "only for backward compatibility".
     */
    public static EndpointDescription noneEndpoint(String endpointUrl, ApplicationDescription server,
            List<UserTokenPolicy> userTokenPolicies) {
        return new EndpointDescription(endpointUrl, server, ByteString.NULL, MessageSecurityMode.None,
                SecurityPolicy.None.uri(), userTokenPolicies.toArray(UserTokenPolicy[]::new), TRANSPORT_PROFILE_UATCP,
                (short) 0);
    }

    /**
     * The user token policy of a token type secured by a security policy (Part 4, 7.42), with a policyId
     * that names both: {@code anonymous}, {@code username_basic256sha256}, {@code x509_basic256sha256},
     * {@code username_none} (a plain-text password). The securityPolicyUri is always set for UserName and
     * Certificate tokens, so that a client never has to guess (Part 4, 7.41.4 requires it on Sign
     * endpoints).
     *
     * @throws IllegalArgumentException for IssuedToken (not supported), or a Certificate token with None
     *         (a user certificate needs a signature to prove possession of its key)
     */
    public static UserTokenPolicy userTokenPolicy(UserTokenType type, SecurityPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return switch (type) {
            case Anonymous -> ANONYMOUS;
            case UserName -> new UserTokenPolicy("username_" + policyName(policy), UserTokenType.UserName, null, null,
                    policy.uri());
            case Certificate -> {
                if (policy == SecurityPolicy.None) {
                    throw new IllegalArgumentException("X.509 user tokens need a security policy other than None");
                }
                yield new UserTokenPolicy("x509_" + policyName(policy), UserTokenType.Certificate, null, null,
                        policy.uri());
            }
            default -> throw new IllegalArgumentException("user token type " + type + " is not supported");
        };
    }

    private static String policyName(SecurityPolicy policy) {
        return policy.name().toLowerCase(Locale.ROOT);
    }

    /** Registers GetEndpoints and FindServers with a dispatcher under construction. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher
                .registerSync(GetEndpointsRequest.class, (channel, request) -> getEndpoints(request))
                .registerSync(FindServersRequest.class, (channel, request) -> findServers(request));
    }

    /** GetEndpoints (Part 4, 5.4.4). */
    public GetEndpointsResponse getEndpoints(GetEndpointsRequest request) {
        String[] profiles = request.profileUris();
        String host = clientHost(request.endpointUrl());
        List<EndpointDescription> result = new ArrayList<>(endpoints.size());
        for (EndpointDescription endpoint : endpoints) {
            if (supportsAny(endpoint, profiles)) {
                result.add(host == null ? endpoint : withHost(endpoint, host));
            }
        }
        return new GetEndpointsResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                result.toArray(EndpointDescription[]::new));
    }

    /**
     * FindServers (Part 4, 5.4.2): this server, and the other servers of its non-transparent redundant set ("a
     * Server in a non-transparent redundant set shall return a record for each Server of the set"), each filtered
     * by the requested ServerUris. The partners' discovery URLs are as configured: only this server's own take the
     * client's host name.
     */
    public FindServersResponse findServers(FindServersRequest request) {
        String[] serverUris = request.serverUris();
        String host = clientHost(request.endpointUrl());
        List<ApplicationDescription> servers = new ArrayList<>(1 + redundantServers.size());
        if (requested(serverUris, application.applicationUri())) {
            servers.add(host == null ? application : withHost(application, host));
        }
        for (ApplicationDescription partner : redundantServers) {
            if (requested(serverUris, partner.applicationUri())) {
                servers.add(partner);
            }
        }
        return new FindServersResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                servers.toArray(ApplicationDescription[]::new));
    }

    private static boolean requested(String[] serverUris, String serverUri) {
        if (serverUris == null || serverUris.length == 0) {
            return true;
        }
        for (String uri : serverUris) {
            if (serverUri.equals(uri)) {
                return true;
            }
        }
        return false;
    }

    public ApplicationDescription applicationDescription() {
        return application;
    }

    public List<EndpointDescription> endpoints() {
        return endpoints;
    }

    /** The host of the client's URL when it is to be substituted, else null. */
    private String clientHost(String requestUrl) {
        if (!useRequestHostName || requestUrl == null || requestUrl.isEmpty()) {
            return null;
        }
        try {
            return EndpointUrl.parse(requestUrl).host();
        } catch (UaException e) {
            return null; // "a suitable default URL if it does not recognize the HostName"
        }
    }

    private static boolean supportsAny(EndpointDescription endpoint, String[] profiles) {
        if (profiles == null || profiles.length == 0) {
            return true;
        }
        for (String profile : profiles) {
            if (profile != null) {
                int query = profile.indexOf('?');
                String uri = query < 0 ? profile : profile.substring(0, query);
                if (uri.equalsIgnoreCase(endpoint.transportProfileUri())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static EndpointDescription withHost(EndpointDescription e, String host) {
        return new EndpointDescription(replaceHost(e.endpointUrl(), host), withHost(e.server(), host),
                e.serverCertificate(), e.securityMode(), e.securityPolicyUri(), e.userIdentityTokens(),
                e.transportProfileUri(), e.securityLevel());
    }

    private static ApplicationDescription withHost(ApplicationDescription a, String host) {
        String[] urls = a.discoveryUrls();
        String[] rewritten = urls == null ? null : new String[urls.length];
        for (int i = 0; urls != null && i < urls.length; i++) {
            rewritten[i] = replaceHost(urls[i], host);
        }
        return new ApplicationDescription(a.applicationUri(), a.productUri(), a.applicationName(),
                a.applicationType(), a.gatewayServerUri(), a.discoveryProfileUri(), rewritten);
    }

    private static String replaceHost(String url, String host) {
        try {
            return EndpointUrl.parse(url).withHost(host).toString();
        } catch (UaException e) {
            return url;
        }
    }

    /**
     * Configuration of {@link DiscoveryServices}: the application, then whole endpoint descriptions or
     * endpoint URLs. Each URL becomes one endpoint per {@link #security security pair} (default: None
     * only, without certificate).
     *
     * <p>User token policies of URL-built endpoints come either from {@link #userTokenTypes} (the
     * default, anonymous only: one policy per type and endpoint, see {@link #userTokenPolicy}) or, as
     * given, from {@link #userTokenPolicies}; the later call wins. With token types, an endpoint of
     * SecurityPolicy P offers UserName and Certificate tokens secured by P. A None endpoint offers them
     * secured by the strongest policy offered (Basic256Sha256 when None is the only one) when a
     * certificate is configured, and carries that certificate, so that a password is still encrypted
     * (Part 4, 7.41.4) and a user certificate still signs; without a certificate it offers no
     * Certificate tokens and offers plain-text passwords only when {@link #plainPasswords} allows it.
     */
    public static final class Builder {

        private ApplicationDescription application;
        private final List<EndpointDescription> endpoints = new ArrayList<>();
        private final List<String> endpointUrls = new ArrayList<>();
        private List<EndpointSecurity> security = List.of(EndpointSecurity.NONE);
        private ApplicationCertificates certificates = ApplicationCertificates.NONE;
        private List<UserTokenPolicy> userTokenPolicies;
        private Set<UserTokenType> userTokenTypes = EnumSet.of(UserTokenType.Anonymous);
        private boolean plainPasswords;
        private boolean useRequestHostName = true;
        private final List<String[]> redundantServers = new ArrayList<>();

        private Builder() {
        }

        /** The server's description; its discoveryUrls default to the endpoint URLs. Required. */
        /**
         * Another server of this server's non-transparent redundant set, which FindServers lists beside this one
         * (Part 4, 5.4.2): its ServerUri (ApplicationUri) and the URL a client discovers it at.
         */
        public Builder redundantServer(String serverUri, String discoveryUrl) {
            redundantServers.add(new String[] {serverUri, discoveryUrl});
            return this;
        }

        public Builder applicationDescription(ApplicationDescription value) {
            application = Objects.requireNonNull(value, "applicationDescription");
            return this;
        }

        /** Shorthand for a Server application with these URIs and name. */
        public Builder application(String applicationUri, String productUri, String applicationName) {
            return applicationDescription(new ApplicationDescription(applicationUri, productUri,
                    LocalizedText.of(applicationName), ApplicationType.Server, null, null, null));
        }

        /** Adds endpoints as they are, but with the application description as their {@code server}. */
        public Builder endpoints(List<EndpointDescription> values) {
            endpoints.addAll(values);
            return this;
        }

        /** Adds URLs, each of which becomes one endpoint per {@link #security security pair}. */
        public Builder endpointUrls(List<String> urls) {
            endpointUrls.addAll(urls);
            return this;
        }

        /**
         * The security policy and mode pairs of the URL-built endpoints, in the order GetEndpoints lists
         * them, and the server's certificate: required when a pair is not None, and used on None endpoints
         * to secure user tokens (see the class comment); null for None only. Default: None, no certificate.
         *
         * @throws IllegalArgumentException for no pair, a repeated pair, or a missing certificate
         */
        public Builder security(List<EndpointSecurity> pairs, ApplicationCertificate serverCertificate) {
            return security(pairs, ApplicationCertificates.of(serverCertificate));
        }

        /**
         * As {@link #security(List, ApplicationCertificate)} with one certificate per type: each endpoint
         * lists the certificate of its policy's type (Part 4, 7.14; Part 12, 7.8.4).
         */
        public Builder security(List<EndpointSecurity> pairs, ApplicationCertificates serverCertificates) {
            List<EndpointSecurity> copy = List.copyOf(pairs);
            if (copy.isEmpty()) {
                throw new IllegalArgumentException("at least one security policy and mode is required");
            }
            if (new LinkedHashSet<>(copy).size() != copy.size()) {
                throw new IllegalArgumentException("a security policy and mode pair is repeated: " + copy);
            }
            if (serverCertificates.missingFor(copy.stream().map(EndpointSecurity::policy).toList()) != null) {
                throw new IllegalArgumentException("endpoints other than None need the server certificate of their "
                        + "policy's type: " + copy + ", certificates " + serverCertificates.types());
            }
            security = copy;
            certificates = serverCertificates;
            return this;
        }

        /**
         * The user token types every URL-built endpoint accepts, each with a policy per endpoint (see the
         * class comment); default anonymous only. Replaces {@link #userTokenPolicies}.
         *
         * @throws IllegalArgumentException for none, or IssuedToken (not supported)
         */
        public Builder userTokenTypes(Collection<UserTokenType> types) {
            if (types.isEmpty()) {
                throw new IllegalArgumentException("an endpoint needs at least one user token type");
            }
            if (types.contains(UserTokenType.IssuedToken)) {
                throw new IllegalArgumentException("issued user tokens are not supported");
            }
            userTokenTypes = EnumSet.copyOf(types);
            userTokenPolicies = null;
            return this;
        }

        /**
         * Whether None endpoints without a certificate accept plain-text passwords (policy
         * {@code username_none}); default false. Part 4, 7.41.4: only for networks encrypted by other means,
         * such as a VPN, since the password crosses the network readable.
         */
        public Builder plainPasswords(boolean value) {
            plainPasswords = value;
            return this;
        }

        /** User identity policies of every URL-built endpoint, as given. Replaces {@link #userTokenTypes}. */
        public Builder userTokenPolicies(List<UserTokenPolicy> values) {
            if (values.isEmpty()) {
                throw new IllegalArgumentException("an endpoint needs at least one user token policy");
            }
            userTokenPolicies = List.copyOf(values);
            return this;
        }

        /** Whether returned URLs carry the host name of the request's EndpointUrl; default true. */
        public Builder useRequestHostName(boolean value) {
            useRequestHostName = value;
            return this;
        }

        /** @throws IllegalStateException without an application description or any endpoint */
        public DiscoveryServices build() {
            if (application == null) {
                throw new IllegalStateException("an application description is required");
            }
            List<String> urls = new ArrayList<>();
            endpoints.forEach(e -> urls.add(e.endpointUrl()));
            urls.addAll(endpointUrls);
            if (urls.isEmpty()) {
                throw new IllegalStateException("at least one endpoint is required");
            }
            ApplicationDescription app = application;
            if (app.discoveryUrls() == null || app.discoveryUrls().length == 0) {
                app = new ApplicationDescription(app.applicationUri(), app.productUri(), app.applicationName(),
                        app.applicationType(), app.gatewayServerUri(), app.discoveryProfileUri(),
                        urls.stream().distinct().toArray(String[]::new));
            }
            List<EndpointDescription> all = new ArrayList<>();
            for (EndpointDescription e : endpoints) {
                all.add(new EndpointDescription(e.endpointUrl(), app, e.serverCertificate(), e.securityMode(),
                        e.securityPolicyUri(), e.userIdentityTokens(), e.transportProfileUri(), e.securityLevel()));
            }
            for (String url : endpointUrls) {
                for (EndpointSecurity pair : security) {
                    all.add(endpoint(url, app, pair));
                }
            }
            List<ApplicationDescription> partners = new ArrayList<>(redundantServers.size());
            for (String[] partner : redundantServers) {
                partners.add(new ApplicationDescription(partner[0], app.productUri(), app.applicationName(),
                        ApplicationType.Server, null, null, new String[] {partner[1]}));
            }
            return new DiscoveryServices(app, List.copyOf(all), useRequestHostName, List.copyOf(partners));
        }

        private EndpointDescription endpoint(String url, ApplicationDescription app, EndpointSecurity pair) {
            List<UserTokenPolicy> policies = userTokenPolicies != null ? userTokenPolicies : generatedPolicies(pair);
            // a None endpoint carries the certificate only when a token policy needs it to encrypt or sign
            boolean needsCertificate = pair.policy() != SecurityPolicy.None || policies.stream().anyMatch(
                    p -> p.securityPolicyUri() != null && !p.securityPolicyUri().isEmpty()
                            && !SecurityPolicy.None.uri().equals(p.securityPolicyUri()));
            // a None endpoint's tokens are secured with an RSA policy (see strongestOffered)
            ApplicationCertificate certificate = pair.policy() == SecurityPolicy.None
                    ? certificates.get(CertificateType.RSA_SHA256) : certificates.forPolicy(pair.policy());
            ByteString serverCertificate = needsCertificate && certificate != null ? certificate.der() : ByteString.NULL;
            return new EndpointDescription(url, app, serverCertificate, pair.mode(), pair.policy().uri(),
                    policies.toArray(UserTokenPolicy[]::new), TRANSPORT_PROFILE_UATCP, pair.securityLevel());
        }

        private List<UserTokenPolicy> generatedPolicies(EndpointSecurity pair) {
            SecurityPolicy tokenPolicy = pair.policy();
            if (tokenPolicy == SecurityPolicy.None && certificates.get(CertificateType.RSA_SHA256) != null) {
                tokenPolicy = strongestOffered();
            }
            List<UserTokenPolicy> policies = new ArrayList<>();
            for (UserTokenType type : userTokenTypes) {
                if (type == UserTokenType.UserName && tokenPolicy == SecurityPolicy.None && !plainPasswords) {
                    continue;
                }
                if (type == UserTokenType.Certificate && tokenPolicy == SecurityPolicy.None) {
                    continue;
                }
                policies.add(userTokenPolicy(type, tokenPolicy));
            }
            if (policies.isEmpty()) {
                throw new IllegalStateException("endpoint " + pair + " would accept no user token of " + userTokenTypes
                        + ": passwords and user certificates on None endpoints need a server certificate"
                        + " (or plainPasswords for passwords)");
            }
            return policies;
        }

        private SecurityPolicy strongestOffered() {
            SecurityPolicy strongest = null;
            for (EndpointSecurity pair : security) {
                // RSA only: a token secured with an ECC policy needs the ephemeral keys of an ECC session
                if (pair.policy() != SecurityPolicy.None && !pair.policy().isEcc()
                        && (strongest == null || pair.policy().strength() > strongest.strength())) {
                    strongest = pair.policy();
                }
            }
            return strongest != null ? strongest : DEFAULT_TOKEN_POLICY;
        }
    }
}
