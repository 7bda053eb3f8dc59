/* An open62541 1.5 server for interoperability tests: SecurityPolicy None and every policy whose key
 * kind matches one of the given certificates, in modes Sign and SignAndEncrypt; anonymous and user
 * name logins; one writable Int32 variable ns=1;s=the.answer = 42; optional reverse connect
 * (Part 6, 7.1.3) to a listening client. See README.md for the arguments. */
#include "interop_common.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CREDENTIALS 8
#define MAX_REVERSE 4

static volatile UA_Boolean running = true;

static void
stop(int signal) {
    (void)signal;
    running = false;
}

static void
usage(void) {
    fprintf(stderr,
            "usage: interop_server --port N [--host H] [--cert FILE --key FILE]... (--trust-dir DIR | --trust-all)\n"
            "                      [--user NAME:PASSWORD] [--user-trust-dir DIR] [--application-uri URI]\n"
            "                      [--no-anonymous]\n"
            "                      [--reverse-connect opc.tcp://HOST:PORT]... [--reverse-interval MS]\n");
    exit(2);
}

static const char *
stateName(UA_SecureChannelState state) {
    switch(state) {
    case UA_SECURECHANNELSTATE_CLOSED: return "CLOSED";
    case UA_SECURECHANNELSTATE_CONNECTING: return "CONNECTING";
    case UA_SECURECHANNELSTATE_CONNECTED: return "CONNECTED";
    case UA_SECURECHANNELSTATE_RHE_SENT: return "RHE_SENT";
    case UA_SECURECHANNELSTATE_OPEN: return "OPEN";
    case UA_SECURECHANNELSTATE_CLOSING: return "CLOSING";
    default: return "OTHER";
    }
}

static void
reverseConnectChanged(UA_Server *server, UA_UInt64 handle, UA_SecureChannelState state, void *context) {
    (void)server;
    printf("REVERSE %s %llu %s\n", (const char *)context, (unsigned long long)handle, stateName(state));
    fflush(stdout);
}

/* Adds every policy whose key kind matches a credential (the first credential of a kind wins). */
static void
addPolicies(UA_ServerConfig *config, const Credential *credentials, size_t credentialCount) {
    config->securityPolicies = (UA_SecurityPolicy *)UA_calloc(POLICY_KINDS_COUNT, sizeof(UA_SecurityPolicy));
    config->securityPoliciesSize = 0;
    for(size_t i = 0; i < POLICY_KINDS_COUNT; i++) {
        const PolicyKind *kind = &POLICY_KINDS[i];
        const Credential *credential = NULL;
        for(size_t c = 0; c < credentialCount && !credential; c++) {
            if(kind->key == KEY_NONE || credentials[c].kind == kind->key)
                credential = &credentials[c];
        }
        if(kind->key != KEY_NONE && !credential)
            continue;
        UA_ByteString certificate = credential ? credential->certificate : UA_BYTESTRING_NULL;
        UA_ByteString key = credential ? credential->privateKey : UA_BYTESTRING_NULL;
        UA_StatusCode status = kind->create(&config->securityPolicies[config->securityPoliciesSize],
                                            UA_APPLICATIONTYPE_SERVER, certificate, key, config->logging);
        if(status != UA_STATUSCODE_GOOD) {
            printf("POLICY-FAILED %s%s %s\n", POLICY_URI_PREFIX, kind->name, UA_StatusCode_name(status));
            continue;
        }
        config->securityPoliciesSize++;
        printf("POLICY %s%s\n", POLICY_URI_PREFIX, kind->name);
    }
}

static void
addTheAnswer(UA_Server *server) {
    UA_VariableAttributes attributes = UA_VariableAttributes_default;
    UA_Int32 answer = 42;
    UA_Variant_setScalar(&attributes.value, &answer, &UA_TYPES[UA_TYPES_INT32]);
    attributes.dataType = UA_TYPES[UA_TYPES_INT32].typeId;
    attributes.valueRank = UA_VALUERANK_SCALAR;
    attributes.accessLevel = UA_ACCESSLEVELMASK_READ | UA_ACCESSLEVELMASK_WRITE;
    attributes.userAccessLevel = UA_ACCESSLEVELMASK_READ | UA_ACCESSLEVELMASK_WRITE;
    attributes.displayName = UA_LOCALIZEDTEXT("en-US", "the answer");
    UA_StatusCode status = UA_Server_addVariableNode(
        server, UA_NODEID_STRING(1, "the.answer"), UA_NS0ID(OBJECTSFOLDER), UA_NS0ID(ORGANIZES),
        UA_QUALIFIEDNAME(1, "the.answer"), UA_NS0ID(BASEDATAVARIABLETYPE), attributes, NULL, NULL);
    if(status != UA_STATUSCODE_GOOD)
        die("adding ns=1;s=the.answer failed: %s", UA_StatusCode_name(status));
}

int
main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    int port = -1;
    const char *host = "localhost";
    const char *applicationUri = "urn:open62541:interop:server";
    const char *trustDir = NULL;
    const char *userTrustDir = NULL;
    UA_Boolean trustAll = false;
    UA_Boolean anonymous = true;
    char *user = NULL;
    Credential credentials[MAX_CREDENTIALS];
    size_t credentialCount = 0;
    const char *reverseUrls[MAX_REVERSE];
    size_t reverseCount = 0;
    int reverseIntervalMs = 1000;

    for(int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if(!strcmp(arg, "--port") && value) {
            port = atoi(value); i++;
        } else if(!strcmp(arg, "--host") && value) {
            host = value; i++;
        } else if(!strcmp(arg, "--cert") && value && i + 3 < argc && !strcmp(argv[i + 2], "--key")) {
            if(credentialCount == MAX_CREDENTIALS)
                die("at most %d certificates", MAX_CREDENTIALS);
            credentials[credentialCount++] = loadCredential(value, argv[i + 3]);
            i += 3;
        } else if(!strcmp(arg, "--trust-dir") && value) {
            trustDir = value; i++;
        } else if(!strcmp(arg, "--user-trust-dir") && value) {
            userTrustDir = value; i++;
        } else if(!strcmp(arg, "--trust-all")) {
            trustAll = true;
        } else if(!strcmp(arg, "--user") && value && strchr(value, ':')) {
            user = strdup(value); i++;
        } else if(!strcmp(arg, "--application-uri") && value) {
            applicationUri = value; i++;
        } else if(!strcmp(arg, "--no-anonymous")) {
            anonymous = false;
        } else if(!strcmp(arg, "--reverse-connect") && value) {
            if(reverseCount == MAX_REVERSE)
                die("at most %d reverse connect targets", MAX_REVERSE);
            reverseUrls[reverseCount++] = value; i++;
        } else if(!strcmp(arg, "--reverse-interval") && value) {
            reverseIntervalMs = atoi(value); i++;
        } else {
            fprintf(stderr, "unknown or incomplete argument '%s'\n", arg);
            usage();
        }
    }
    if(port <= 0 || port > 65535)
        usage();
    if(!trustAll && !trustDir)
        die("give --trust-dir DIR or --trust-all");

    printf("open62541 %s, crypto backend OpenSSL; policies built in:", UA_OPEN62541_VERSION);
    for(size_t i = 0; i < POLICY_KINDS_COUNT; i++)
        printf(" %s", POLICY_KINDS[i].name);
    printf("\n");
    for(size_t c = 0; c < credentialCount; c++)
        printf("CERTIFICATE %zu %s\n", c, credentials[c].description);

    UA_Server *server = UA_Server_new();
    UA_ServerConfig *config = UA_Server_getConfig(server);
    UA_StatusCode status = UA_ServerConfig_setBasics_withPort(config, (UA_UInt16)port);
    if(status != UA_STATUSCODE_GOOD)
        die("server configuration failed: %s", UA_StatusCode_name(status));

    char url[512];
    snprintf(url, sizeof(url), "opc.tcp://%s:%d", host, port);
    UA_Array_delete(config->serverUrls, config->serverUrlsSize, &UA_TYPES[UA_TYPES_STRING]);
    config->serverUrls = UA_String_new();
    *config->serverUrls = UA_STRING_ALLOC(url);
    config->serverUrlsSize = 1;

    UA_String_clear(&config->applicationDescription.applicationUri);
    config->applicationDescription.applicationUri = UA_STRING_ALLOC(applicationUri);
    UA_LocalizedText_clear(&config->applicationDescription.applicationName);
    config->applicationDescription.applicationName = UA_LOCALIZEDTEXT_ALLOC("en-US", "open62541 interop server");

    configureTrust(&config->secureChannelPKI, trustAll ? NULL : trustDir,
                   UA_NS0ID(SERVERCONFIGURATION_CERTIFICATEGROUPS_DEFAULTAPPLICATIONGROUP), config->logging);
    /* X.509 users: open62541 checks the token's signature with the user-token policy and then
     * validates the user certificate with sessionPKI (the DefaultUserTokenGroup); the default access
     * control offers a Certificate token policy on every endpoint as soon as sessionPKI can verify. */
    configureTrust(&config->sessionPKI, userTrustDir ? userTrustDir : trustAll ? NULL : trustDir,
                   UA_NS0ID(SERVERCONFIGURATION_CERTIFICATEGROUPS_DEFAULTUSERTOKENGROUP), config->logging);

    addPolicies(config, credentials, credentialCount);

    UA_UsernamePasswordLogin login;
    size_t loginCount = 0;
    if(user) {
        char *colon = strchr(user, ':');
        *colon = '\0';
        login.username = UA_STRING(user);
        login.password = UA_STRING(colon + 1);
        loginCount = 1;
    }
    status = UA_AccessControl_default(config, anonymous, NULL, loginCount, &login);
    if(status != UA_STATUSCODE_GOOD)
        die("access control: %s", UA_StatusCode_name(status));

    status = UA_ServerConfig_addAllEndpoints(config);
    if(status != UA_STATUSCODE_GOOD)
        die("endpoints: %s", UA_StatusCode_name(status));

    addTheAnswer(server);
    /* open62541 waits 15 s by default before it dials a reverse connect target again; a client
     * that closes the first (discovery) connection would wait that long for the next. */
    config->reverseReconnectInterval = (UA_UInt32)reverseIntervalMs;

    signal(SIGINT, stop);
    signal(SIGTERM, stop);
    status = UA_Server_run_startup(server);
    if(status != UA_STATUSCODE_GOOD)
        die("server start failed: %s", UA_StatusCode_name(status));
    for(size_t r = 0; r < reverseCount; r++) {
        status = UA_Server_addReverseConnect(server, UA_STRING((char *)reverseUrls[r]), reverseConnectChanged,
                                             (void *)reverseUrls[r], NULL);
        if(status != UA_STATUSCODE_GOOD)
            die("reverse connect to %s: %s", reverseUrls[r], UA_StatusCode_name(status));
    }
    printf("READY %d\n", port);
    while(running)
        UA_Server_run_iterate(server, true);
    UA_Server_run_shutdown(server);
    UA_Server_delete(server);
    for(size_t c = 0; c < credentialCount; c++) {
        UA_ByteString_clear(&credentials[c].certificate);
        UA_ByteString_clear(&credentials[c].privateKey);
    }
    free(user);
    printf("STOPPED\n");
    return 0;
}
