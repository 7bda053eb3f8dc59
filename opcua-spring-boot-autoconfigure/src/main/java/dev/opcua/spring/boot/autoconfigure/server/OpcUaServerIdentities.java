package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.session.X509IdentityValidator;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The {@link IdentityValidator} of {@code opcua.server.identity.*}, and the user token types the
 * endpoints offer: Anonymous when {@code anonymous}, UserName when users are listed (or when the
 * application supplies its own validator, which presumably checks passwords), Certificate when
 * {@code x509}.
 */
final class OpcUaServerIdentities {

    private OpcUaServerIdentities() {
    }

    /** Who may open a session, after {@code opcua.server.identity.*}. */
    static IdentityValidator validator(OpcUaServerProperties.Identity identity) {
        List<IdentityValidator> validators = new ArrayList<>();
        if (!identity.getUsers().isEmpty()) {
            validators.add(new UserNameIdentityValidator(new OpcUaPasswordVerifier(identity.getUsers()),
                    identity.isAnonymous()));
        } else if (identity.isAnonymous()) {
            validators.add(IdentityValidator.anonymousOnly());
        }
        if (identity.isX509()) {
            validators.add(X509IdentityValidator.anyTrusted());
        }
        Set<UserTokenType> types = tokenTypes(identity, true);
        IdentityValidator delegate = validators.isEmpty() ? IdentityValidator.refuseAll()
                : validators.size() == 1 ? validators.get(0)
                : IdentityValidator.anyOf(validators.toArray(IdentityValidator[]::new));
        return new ConfiguredIdentityValidator(delegate, types);
    }

    /**
     * The user token types of the endpoints: from the properties for {@link #validator}'s validator,
     * with UserName added for any other.
     *
     * @throws InvalidOpcUaServerPropertyException when no one could open a session
     */
    static Set<UserTokenType> tokenTypes(OpcUaServerProperties.Identity identity, IdentityValidator validator) {
        if (validator instanceof ConfiguredIdentityValidator configured) {
            return configured.tokenTypes();
        }
        Set<UserTokenType> types = tokenTypes(identity, false);
        types.add(UserTokenType.UserName);
        return types;
    }

    private static Set<UserTokenType> tokenTypes(OpcUaServerProperties.Identity identity, boolean check) {
        Set<UserTokenType> types = EnumSet.noneOf(UserTokenType.class);
        if (identity.isAnonymous()) {
            types.add(UserTokenType.Anonymous);
        }
        if (!identity.getUsers().isEmpty()) {
            types.add(UserTokenType.UserName);
        }
        if (identity.isX509()) {
            types.add(UserTokenType.Certificate);
        }
        if (check && types.isEmpty()) {
            throw new InvalidOpcUaServerPropertyException(OpcUaServerPropertiesMapper.key("identity.anonymous"), false,
                    "with no users and x509 false, no one could open a session",
                    "true, or users in " + OpcUaServerPropertiesMapper.key("identity.users") + ", or "
                            + OpcUaServerPropertiesMapper.key("identity.x509") + "=true");
        }
        return types;
    }

    /** The validator built from the properties, which knows the token types it accepts. */
    static final class ConfiguredIdentityValidator implements IdentityValidator {

        private final IdentityValidator delegate;
        private final Set<UserTokenType> tokenTypes;

        ConfiguredIdentityValidator(IdentityValidator delegate, Set<UserTokenType> tokenTypes) {
            this.delegate = delegate;
            this.tokenTypes = tokenTypes;
        }

        Set<UserTokenType> tokenTypes() {
            return EnumSet.copyOf(tokenTypes);
        }

        @Override
        public Identity validate(UserIdentityToken token, UserTokenPolicy policy) {
            return delegate.validate(token, policy);
        }
    }
}
