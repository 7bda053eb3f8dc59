/* An open62541 1.5 client for interoperability tests: opens a session with the given policy, mode and
 * identity, reads an Int32 variable, writes a value and prints
 *     RESULT read=<value> write=<status name>
 * exit 0 when both succeeded, 1 with "FAILED <status name> <step>" otherwise, 2 on bad arguments.
 * With --reverse-listen it waits for a server's ReverseHello (Part 6, 7.1.3) instead of dialling.
 * See README.md for the arguments. */
#include "interop_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
usage(void) {
    fprintf(stderr,
            "usage: interop_client (--endpoint URL | --reverse-listen PORT [--endpoint URL]) [--policy NAME]\n"
            "                      [--mode None|Sign|SignAndEncrypt]\n"
            "                      [--user NAME:PASSWORD | --user-cert FILE --user-key FILE]\n"
            "                      [--cert FILE --key FILE] (--trust-dir DIR | --trust-all)\n"
            "                      [--node NODEID] [--write INT32] [--application-uri URI] [--timeout SECONDS]\n");
    exit(2);
}

static int
fail(const char *step, UA_StatusCode status) {
    printf("FAILED %s %s\n", UA_StatusCode_name(status), step);
    return 1;
}

static UA_MessageSecurityMode
parseMode(const char *mode) {
    if(!strcmp(mode, "None"))
        return UA_MESSAGESECURITYMODE_NONE;
    if(!strcmp(mode, "Sign"))
        return UA_MESSAGESECURITYMODE_SIGN;
    if(!strcmp(mode, "SignAndEncrypt"))
        return UA_MESSAGESECURITYMODE_SIGNANDENCRYPT;
    die("unknown mode '%s' (None, Sign, SignAndEncrypt)", mode);
    return UA_MESSAGESECURITYMODE_INVALID;
}

/* None plus every policy that fits the credential's key, built for the client side. */
static UA_SecurityPolicy *
createPolicies(const Credential *credential, size_t *count, const UA_Logger *logger) {
    UA_SecurityPolicy *policies = (UA_SecurityPolicy *)UA_calloc(POLICY_KINDS_COUNT, sizeof(UA_SecurityPolicy));
    *count = 0;
    for(size_t i = 0; i < POLICY_KINDS_COUNT; i++) {
        const PolicyKind *kind = &POLICY_KINDS[i];
        if(kind->key != KEY_NONE && (!credential || credential->kind != kind->key))
            continue;
        UA_ByteString certificate = credential ? credential->certificate : UA_BYTESTRING_NULL;
        UA_ByteString key = credential ? credential->privateKey : UA_BYTESTRING_NULL;
        if(kind->create(&policies[*count], UA_APPLICATIONTYPE_CLIENT, certificate, key, logger)
           == UA_STATUSCODE_GOOD)
            (*count)++;
    }
    return policies;
}

static double
now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Listens for the server's ReverseHello and drives the client until its session is activated.
 * open62541 opens the first channel over a reverse connection with SecurityPolicy None and calls
 * GetEndpoints; when the chosen endpoint is secure it closes that connection, so the client listens
 * again for the server's next ReverseHello and opens the secure channel over that one. */
static UA_StatusCode
connectReverse(UA_Client *client, UA_UInt16 port, double timeoutSeconds) {
    UA_String listenHost = UA_STRING("127.0.0.1");
    UA_StatusCode status = UA_Client_startListeningForReverseConnect(client, &listenHost, 1, port);
    if(status != UA_STATUSCODE_GOOD)
        return status;
    printf("LISTENING %u\n", (unsigned)port);
    double deadline = now() + timeoutSeconds;
    int listens = 1;
    while(now() < deadline) {
        UA_Client_run_iterate(client, 50);
        UA_SecureChannelState channel;
        UA_SessionState session;
        UA_StatusCode connect;
        UA_Client_getState(client, &channel, &session, &connect);
        if(session == UA_SESSIONSTATE_ACTIVATED) {
            printf("REVERSE-CONNECTED after %d listen(s)\n", listens);
            return UA_STATUSCODE_GOOD;
        }
        if(connect != UA_STATUSCODE_GOOD && connect != UA_STATUSCODE_BADCONNECTIONCLOSED &&
           connect != UA_STATUSCODE_BADNOTCONNECTED)
            return connect;
        if(channel == UA_SECURECHANNELSTATE_CLOSED) {
            if(++listens > 5)
                return UA_STATUSCODE_BADCONNECTIONCLOSED;
            printf("REVERSE-RELISTEN the connection closed before the session was activated\n");
            status = UA_Client_startListeningForReverseConnect(client, &listenHost, 1, port);
            if(status != UA_STATUSCODE_GOOD)
                return status;
            printf("LISTENING %u\n", (unsigned)port);
        }
    }
    return UA_STATUSCODE_BADTIMEOUT;
}

/* The policy and mode of the channel the session runs on, as the client's connection reports them. */
static void
printChannel(UA_Client *client) {
    UA_String policyUri = UA_STRING_NULL;
    UA_MessageSecurityMode mode = UA_MESSAGESECURITYMODE_INVALID;
    UA_Client_getConnectionAttribute_scalar(client, UA_QUALIFIEDNAME(0, "securityPolicyUri"),
                                            &UA_TYPES[UA_TYPES_STRING], &policyUri);
    UA_Client_getConnectionAttribute_scalar(client, UA_QUALIFIEDNAME(0, "securityMode"),
                                            &UA_TYPES[UA_TYPES_MESSAGESECURITYMODE], &mode);
    static const char *modes[] = {"Invalid", "None", "Sign", "SignAndEncrypt"};
    printf("CHANNEL %.*s %s\n", (int)policyUri.length, (const char *)policyUri.data,
           mode <= UA_MESSAGESECURITYMODE_SIGNANDENCRYPT ? modes[mode] : "?");
}

int
main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *endpoint = NULL;
    const char *policyName = "None";
    const char *modeName = NULL;
    const char *user = NULL;
    const char *certificatePath = NULL;
    const char *keyPath = NULL;
    const char *userCertificatePath = NULL;
    const char *userKeyPath = NULL;
    const char *trustDir = NULL;
    UA_Boolean trustAll = false;
    const char *nodeText = "ns=1;s=the.answer";
    UA_Int32 writeValue = 43;
    const char *applicationUri = "urn:open62541:interop:client";
    int reversePort = 0;
    double timeout = 30;

    for(int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if(!strcmp(arg, "--trust-all")) {
            trustAll = true;
            continue;
        }
        if(!value) {
            fprintf(stderr, "unknown or incomplete argument '%s'\n", arg);
            usage();
        }
        i++;
        if(!strcmp(arg, "--endpoint")) endpoint = value;
        else if(!strcmp(arg, "--policy")) policyName = value;
        else if(!strcmp(arg, "--mode")) modeName = value;
        else if(!strcmp(arg, "--user")) user = value;
        else if(!strcmp(arg, "--cert")) certificatePath = value;
        else if(!strcmp(arg, "--key")) keyPath = value;
        else if(!strcmp(arg, "--user-cert")) userCertificatePath = value;
        else if(!strcmp(arg, "--user-key")) userKeyPath = value;
        else if(!strcmp(arg, "--trust-dir")) trustDir = value;
        else if(!strcmp(arg, "--node")) nodeText = value;
        else if(!strcmp(arg, "--write")) writeValue = (UA_Int32)atol(value);
        else if(!strcmp(arg, "--application-uri")) applicationUri = value;
        else if(!strcmp(arg, "--reverse-listen")) reversePort = atoi(value);
        else if(!strcmp(arg, "--timeout")) timeout = atof(value);
        else {
            fprintf(stderr, "unknown argument '%s'\n", arg);
            usage();
        }
    }
    if(!endpoint && reversePort <= 0)
        usage();
    if(!trustAll && !trustDir)
        die("give --trust-dir DIR or --trust-all");
    if(!certificatePath != !keyPath)
        die("--cert and --key go together");
    if(!userCertificatePath != !userKeyPath)
        die("--user-cert and --user-key go together");
    if(user && userCertificatePath)
        die("give --user or --user-cert/--user-key, not both");
    const PolicyKind *policy = findPolicy(policyName);
    if(!policy)
        die("unknown security policy '%s'", policyName);
    UA_MessageSecurityMode mode = parseMode(modeName ? modeName : (policy->key == KEY_NONE ? "None" : "SignAndEncrypt"));
    if((policy->key == KEY_NONE) != (mode == UA_MESSAGESECURITYMODE_NONE))
        die("policy %s does not go with mode %s", policy->name, modeName);

    Credential credential;
    UA_Boolean haveCredential = certificatePath != NULL;
    if(haveCredential) {
        credential = loadCredential(certificatePath, keyPath);
        printf("CERTIFICATE %s\n", credential.description);
    }
    if(policy->key != KEY_NONE && (!haveCredential || credential.kind != policy->key))
        die("policy %s needs a certificate with a %s key", policy->name, keyKindName(policy->key));
    Credential userCredential;
    UA_Boolean haveUserCredential = userCertificatePath != NULL;
    if(haveUserCredential) {
        userCredential = loadCredential(userCertificatePath, userKeyPath);
        printf("USER-CERTIFICATE %s\n", userCredential.description);
    }

    UA_NodeId node;
    if(UA_NodeId_parse(&node, UA_STRING((char *)nodeText)) != UA_STATUSCODE_GOOD)
        die("'%s' is not a node id", nodeText);

    UA_StatusCode status;
    UA_Client *client = UA_Client_new();
    UA_ClientConfig *config = UA_Client_getConfig(client);
    UA_ClientConfig_setDefault(config);
    config->timeout = (UA_UInt32)(timeout * 1000);
    config->securityMode = mode;
    UA_String_clear(&config->securityPolicyUri);
    char policyUri[256];
    snprintf(policyUri, sizeof(policyUri), "%s%s", POLICY_URI_PREFIX, policy->name);
    config->securityPolicyUri = UA_STRING_ALLOC(policyUri);
    UA_String_clear(&config->clientDescription.applicationUri);
    config->clientDescription.applicationUri = UA_STRING_ALLOC(applicationUri);
    configureTrust(&config->certificateVerification, trustAll ? NULL : trustDir,
                   UA_NS0ID(SERVERCONFIGURATION_CERTIFICATEGROUPS_DEFAULTAPPLICATIONGROUP), config->logging);

    /* The policies for the channel, and separately (each has its own context) for encrypting the
     * user token under the token policy's SecurityPolicyUri (Part 4, 7.41.3). */
    for(size_t i = 0; i < config->securityPoliciesSize; i++)
        config->securityPolicies[i].clear(&config->securityPolicies[i]);
    UA_free(config->securityPolicies);
    config->securityPolicies = createPolicies(haveCredential ? &credential : NULL,
                                              &config->securityPoliciesSize, config->logging);
    if(haveUserCredential) {
        /* An X509IdentityToken with the user certificate. The function also replaces
         * authSecurityPolicies by open62541's default set built on the user's certificate and key
         * (the key signs the token, Part 4, 5.6.3.2); that set leaves out the non-AEAD ECC policies
         * (ECC_nistP256/P384, ECC_brainpoolP256r1/P384r1), so the policies are replaced once more
         * below by every policy that fits the user's key. */
        status = UA_ClientConfig_setAuthenticationCert(config, userCredential.certificate,
                                                       userCredential.privateKey);
        if(status != UA_STATUSCODE_GOOD)
            die("UA_ClientConfig_setAuthenticationCert: %s", UA_StatusCode_name(status));
    }
    for(size_t i = 0; i < config->authSecurityPoliciesSize; i++)
        config->authSecurityPolicies[i].clear(&config->authSecurityPolicies[i]);
    UA_free(config->authSecurityPolicies);
    const Credential *authCredential = haveUserCredential ? &userCredential
                                       : haveCredential ? &credential : NULL;
    config->authSecurityPolicies = createPolicies(authCredential, &config->authSecurityPoliciesSize,
                                                  config->logging);

    if(user) {
        char *name = strdup(user);
        char *colon = strchr(name, ':');
        if(!colon)
            die("--user wants NAME:PASSWORD");
        *colon = '\0';
        UA_ClientConfig_setAuthenticationUsername(config, name, colon + 1);
        free(name);
    }

    printf("IDENTITY %s\n", haveUserCredential ? "x509" : user ? "username" : "anonymous");
    if(reversePort > 0) {
        if(endpoint) {
            UA_String_clear(&config->endpointUrl);
            config->endpointUrl = UA_STRING_ALLOC(endpoint);
        }
        config->noReconnect = true; /* a closed connection must not make the client dial the server */
        config->tcpReuseAddr = true; /* the port is listened on again right after the first close */
        status = connectReverse(client, (UA_UInt16)reversePort, timeout);
    } else {
        status = UA_Client_connect(client, endpoint);
    }
    if(status != UA_STATUSCODE_GOOD) {
        int code = fail("connect", status);
        UA_Client_delete(client);
        return code;
    }

    UA_Variant value;
    UA_Variant_init(&value);
    status = UA_Client_readValueAttribute(client, node, &value);
    if(status != UA_STATUSCODE_GOOD) {
        int code = fail("read", status);
        UA_Client_disconnect(client);
        UA_Client_delete(client);
        return code;
    }
    char readText[128] = "?";
    if(UA_Variant_hasScalarType(&value, &UA_TYPES[UA_TYPES_INT32])) {
        snprintf(readText, sizeof(readText), "%d", (int)*(UA_Int32 *)value.data);
    } else {
        UA_String printed = UA_STRING_NULL;
        UA_print(&value, &UA_TYPES[UA_TYPES_VARIANT], &printed);
        snprintf(readText, sizeof(readText), "%.*s", (int)printed.length, (const char *)printed.data);
        UA_String_clear(&printed);
    }
    UA_Variant_clear(&value);

    UA_Variant newValue;
    UA_Variant_setScalar(&newValue, &writeValue, &UA_TYPES[UA_TYPES_INT32]);
    UA_StatusCode written = UA_Client_writeValueAttribute(client, node, &newValue);
    printf("RESULT read=%s write=%s\n", readText, UA_StatusCode_name(written));
    printChannel(client);

    UA_Client_disconnect(client);
    UA_Client_delete(client);
    UA_NodeId_clear(&node);
    if(haveCredential) {
        UA_ByteString_clear(&credential.certificate);
        UA_ByteString_clear(&credential.privateKey);
    }
    if(haveUserCredential) {
        UA_ByteString_clear(&userCredential.certificate);
        UA_ByteString_clear(&userCredential.privateKey);
    }
    return written == UA_STATUSCODE_GOOD ? 0 : 1;
}
