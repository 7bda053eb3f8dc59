/* Helpers shared by interop_server.c and interop_client.c. OpenSSL is used directly only to find out
 * which kind of key a certificate holds; everything else goes through open62541's public API. */
#include "interop_common.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

void
die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "error: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    fflush(stdout);
    exit(2);
}

UA_ByteString
readFile(const char *path) {
    FILE *file = fopen(path, "rb");
    if(!file)
        die("cannot open '%s'", path);
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    if(length <= 0)
        die("'%s' is empty", path);
    UA_ByteString content;
    if(UA_ByteString_allocBuffer(&content, (size_t)length) != UA_STATUSCODE_GOOD)
        die("out of memory reading '%s'", path);
    if(fread(content.data, 1, (size_t)length, file) != (size_t)length)
        die("cannot read '%s'", path);
    fclose(file);
    return content;
}

/* ---- security policies: the RSA constructors take no application type, wrap them */

static UA_StatusCode
createNone(UA_SecurityPolicy *p, UA_ApplicationType t, const UA_ByteString c, const UA_ByteString k,
           const UA_Logger *l) {
    (void)t; (void)k;
    return UA_SecurityPolicy_None(p, c, l);
}

#define RSA_POLICY(fn)                                                                          \
    static UA_StatusCode create_##fn(UA_SecurityPolicy *p, UA_ApplicationType t,               \
                                     const UA_ByteString c, const UA_ByteString k,               \
                                     const UA_Logger *l) {                                       \
        (void)t;                                                                                \
        return UA_SecurityPolicy_##fn(p, c, k, l);                                              \
    }
RSA_POLICY(Basic128Rsa15)
RSA_POLICY(Basic256)
RSA_POLICY(Basic256Sha256)
RSA_POLICY(Aes128Sha256RsaOaep)
RSA_POLICY(Aes256Sha256RsaPss)

const PolicyKind POLICY_KINDS[] = {
    {"None", KEY_NONE, createNone},
    {"Basic128Rsa15", KEY_RSA, create_Basic128Rsa15},
    {"Basic256", KEY_RSA, create_Basic256},
    {"Basic256Sha256", KEY_RSA, create_Basic256Sha256},
    {"Aes128_Sha256_RsaOaep", KEY_RSA, create_Aes128Sha256RsaOaep},
    {"Aes256_Sha256_RsaPss", KEY_RSA, create_Aes256Sha256RsaPss},
    {"ECC_nistP256", KEY_NIST_P256, UA_SecurityPolicy_EccNistP256},
    {"ECC_nistP384", KEY_NIST_P384, UA_SecurityPolicy_EccNistP384},
    {"ECC_brainpoolP256r1", KEY_BRAINPOOL_P256R1, UA_SecurityPolicy_EccBrainpoolP256r1},
    {"ECC_brainpoolP384r1", KEY_BRAINPOOL_P384R1, UA_SecurityPolicy_EccBrainpoolP384r1},
    {"ECC_nistP256_AesGcm", KEY_NIST_P256, UA_SecurityPolicy_EccNistP256AesGcm},
    {"ECC_nistP256_ChaChaPoly", KEY_NIST_P256, UA_SecurityPolicy_EccNistP256ChaChaPoly},
    {"ECC_curve25519", KEY_CURVE25519, UA_SecurityPolicy_EccCurve25519},
    {"ECC_curve448", KEY_CURVE448, UA_SecurityPolicy_EccCurve448},
};
const size_t POLICY_KINDS_COUNT = sizeof(POLICY_KINDS) / sizeof(POLICY_KINDS[0]);

const PolicyKind *
findPolicy(const char *nameOrUri) {
    const char *name = nameOrUri;
    if(strncmp(nameOrUri, POLICY_URI_PREFIX, strlen(POLICY_URI_PREFIX)) == 0)
        name = nameOrUri + strlen(POLICY_URI_PREFIX);
    for(size_t i = 0; i < POLICY_KINDS_COUNT; i++) {
        if(strcmp(POLICY_KINDS[i].name, name) == 0)
            return &POLICY_KINDS[i];
    }
    return NULL;
}

const char *
keyKindName(KeyKind kind) {
    switch(kind) {
    case KEY_NONE: return "none";
    case KEY_RSA: return "RSA";
    case KEY_NIST_P256: return "EC nistP256";
    case KEY_NIST_P384: return "EC nistP384";
    case KEY_BRAINPOOL_P256R1: return "EC brainpoolP256r1";
    case KEY_BRAINPOOL_P384R1: return "EC brainpoolP384r1";
    case KEY_CURVE25519: return "Ed25519";
    case KEY_CURVE448: return "Ed448";
    default: return "unsupported";
    }
}

/* ---- certificates and keys */

static X509 *
parseCertificate(const UA_ByteString *bytes) {
    const unsigned char *in = bytes->data;
    X509 *certificate = d2i_X509(NULL, &in, (long)bytes->length);
    if(certificate)
        return certificate;
    BIO *bio = BIO_new_mem_buf(bytes->data, (int)bytes->length);
    certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return certificate;
}

static EVP_PKEY *
parsePrivateKey(const UA_ByteString *bytes) {
    const unsigned char *in = bytes->data;
    EVP_PKEY *key = d2i_AutoPrivateKey(NULL, &in, (long)bytes->length);
    if(key)
        return key;
    BIO *bio = BIO_new_mem_buf(bytes->data, (int)bytes->length);
    key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return key;
}

static UA_ByteString
toDer(X509 *certificate) {
    unsigned char *der = NULL;
    int length = i2d_X509(certificate, &der);
    UA_ByteString out = UA_BYTESTRING_NULL;
    if(length > 0) {
        UA_ByteString view = {(size_t)length, der};
        UA_ByteString_copy(&view, &out);
    }
    OPENSSL_free(der);
    return out;
}

static KeyKind
kindOf(EVP_PKEY *key) {
    switch(EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA: return KEY_RSA;
    case EVP_PKEY_ED25519: return KEY_CURVE25519;
    case EVP_PKEY_ED448: return KEY_CURVE448;
    case EVP_PKEY_EC: {
        char group[64] = "";
        size_t length = 0;
        if(!EVP_PKEY_get_group_name(key, group, sizeof(group), &length))
            return KEY_OTHER;
        if(strcmp(group, "prime256v1") == 0 || strcmp(group, "P-256") == 0)
            return KEY_NIST_P256;
        if(strcmp(group, "secp384r1") == 0 || strcmp(group, "P-384") == 0)
            return KEY_NIST_P384;
        if(strcmp(group, "brainpoolP256r1") == 0)
            return KEY_BRAINPOOL_P256R1;
        if(strcmp(group, "brainpoolP384r1") == 0)
            return KEY_BRAINPOOL_P384R1;
        return KEY_OTHER;
    }
    default:
        return KEY_OTHER;
    }
}

Credential
loadCredential(const char *certificatePath, const char *keyPath) {
    Credential credential;
    memset(&credential, 0, sizeof(credential));
    UA_ByteString certificateFile = readFile(certificatePath);
    X509 *certificate = parseCertificate(&certificateFile);
    UA_ByteString_clear(&certificateFile);
    if(!certificate)
        die("'%s' is neither a DER nor a PEM X.509 certificate", certificatePath);
    credential.certificate = toDer(certificate);

    credential.privateKey = readFile(keyPath);
    EVP_PKEY *key = parsePrivateKey(&credential.privateKey);
    if(!key)
        die("'%s' is not an unencrypted private key (DER or PEM; PKCS#1, SEC1 or PKCS#8)", keyPath);
    if(X509_check_private_key(certificate, key) != 1)
        die("the key '%s' does not belong to the certificate '%s'", keyPath, certificatePath);
    credential.kind = kindOf(key);
    snprintf(credential.description, sizeof(credential.description), "%s (%d bits)",
             keyKindName(credential.kind), EVP_PKEY_get_bits(key));
    EVP_PKEY_free(key);
    X509_free(certificate);
    if(credential.kind == KEY_OTHER)
        die("the key of '%s' suits no OPC UA security policy", certificatePath);
    return credential;
}

UA_ByteString *
loadCertificateDirectory(const char *directory, size_t *count) {
    DIR *dir = opendir(directory);
    if(!dir)
        die("cannot open the trust list folder '%s'", directory);
    UA_ByteString *certificates = NULL;
    *count = 0;
    for(struct dirent *entry = readdir(dir); entry; entry = readdir(dir)) {
        const char *dot = strrchr(entry->d_name, '.');
        if(!dot || (strcmp(dot, ".der") && strcmp(dot, ".crt") && strcmp(dot, ".pem") && strcmp(dot, ".cer")))
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", directory, entry->d_name);
        UA_ByteString file = readFile(path);
        X509 *certificate = parseCertificate(&file);
        UA_ByteString_clear(&file);
        if(!certificate)
            die("'%s' in the trust list is not a certificate", path);
        certificates = (UA_ByteString *)realloc(certificates, sizeof(UA_ByteString) * (*count + 1));
        if(!certificates)
            die("out of memory");
        certificates[(*count)++] = toDer(certificate);
        X509_free(certificate);
    }
    closedir(dir);
    return certificates;
}

void
configureTrust(UA_CertificateGroup *group, const char *directory, UA_NodeId groupId,
               const UA_Logger *logger) {
    if(!directory) {
        UA_CertificateGroup_AcceptAll(group);
        group->logging = logger;
        return;
    }
    size_t count = 0;
    UA_ByteString *certificates = loadCertificateDirectory(directory, &count);
    UA_TrustListDataType list;
    UA_TrustListDataType_init(&list);
    list.specifiedLists = UA_TRUSTLISTMASKS_TRUSTEDCERTIFICATES;
    list.trustedCertificates = certificates;
    list.trustedCertificatesSize = count;
    UA_StatusCode status = UA_CertificateGroup_Memorystore(group, &groupId, &list, logger, NULL);
    if(status != UA_STATUSCODE_GOOD)
        die("the trust list of '%s' was refused: %s", directory, UA_StatusCode_name(status));
    for(size_t i = 0; i < count; i++)
        UA_ByteString_clear(&certificates[i]);
    free(certificates);
    printf("TRUST %zu certificate(s) from %s\n", count, directory);
}
