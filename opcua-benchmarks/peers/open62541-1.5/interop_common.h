/* Helpers shared by interop_server.c and interop_client.c: files, certificates, the security policies
 * open62541 1.5 offers with OpenSSL, and which of them fit a certificate's key. */
#ifndef INTEROP_COMMON_H
#define INTEROP_COMMON_H

#include "open62541.h"

#define POLICY_URI_PREFIX "http://opcfoundation.org/UA/SecurityPolicy#"

/* The kind of key a certificate holds; each policy needs one kind (Part 7 security policy profiles). */
typedef enum {
    KEY_NONE = 0,
    KEY_RSA,
    KEY_NIST_P256,
    KEY_NIST_P384,
    KEY_BRAINPOOL_P256R1,
    KEY_BRAINPOOL_P384R1,
    KEY_CURVE25519,
    KEY_CURVE448,
    KEY_OTHER
} KeyKind;

/* A security policy of open62541 with the key it needs and its constructor. */
typedef struct {
    const char *name; /* the part after '#' of the policy URI */
    KeyKind key;
    UA_StatusCode (*create)(UA_SecurityPolicy *policy, UA_ApplicationType type,
                            const UA_ByteString certificate, const UA_ByteString key,
                            const UA_Logger *logger);
} PolicyKind;

/* Every policy open62541 1.5 builds with OpenSSL, None first. */
extern const PolicyKind POLICY_KINDS[];
extern const size_t POLICY_KINDS_COUNT;

/* A certificate and its private key as read from files, with the kind of key. */
typedef struct {
    UA_ByteString certificate; /* DER */
    UA_ByteString privateKey;  /* as in the file: DER or PEM, PKCS#1, SEC1 or PKCS#8 */
    KeyKind kind;
    char description[64];
} Credential;

/* Exits with a message on standard error. */
void die(const char *format, ...);

/* The whole file; exits when it cannot be read. */
UA_ByteString readFile(const char *path);

/* Reads a certificate (DER or PEM) and its key (DER or PEM); exits with a clear message when
 * either cannot be parsed or they do not belong together. */
Credential loadCredential(const char *certificatePath, const char *keyPath);

/* DER of every certificate file (DER or PEM, *.der, *.crt, *.pem, *.cer) in a folder. */
UA_ByteString *loadCertificateDirectory(const char *directory, size_t *count);

/* The policy named by its short name ("Basic256Sha256", "ECC_nistP256") or URI; NULL if unknown. */
const PolicyKind *findPolicy(const char *nameOrUri);

const char *keyKindName(KeyKind kind);

/* A certificate group that trusts the certificates of the folder, or every certificate when
 * directory is NULL. */
void configureTrust(UA_CertificateGroup *group, const char *directory, UA_NodeId groupId,
                    const UA_Logger *logger);

#endif
