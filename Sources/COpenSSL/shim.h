// OpenSSL's libcrypto (Debian libssl-dev): only what the APNs ES256 signer needs, loaded on first
// use with dlopen (as libcurl is, see CCurl): runs without an APNs sink never map it. Swift calls
// these hrb_ wrappers only (the module links nothing, so a direct call fails to link).
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/core_names.h>
#include <dlfcn.h>
#include <stdatomic.h>

static inline void *hrb_crypto_library(void) {
    static void *_Atomic library;
    void *handle = atomic_load_explicit(&library, memory_order_acquire);
    if (handle == NULL) {
        handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
        if (handle != NULL) atomic_store_explicit(&library, handle, memory_order_release);
    }
    return handle;
}

/// NULL when libcrypto is loaded; else why not (dlerror's text).
static inline const char *hrb_crypto_unavailable(void) {
    if (hrb_crypto_library() != NULL) return NULL;
    const char *error = dlerror();
    return error != NULL ? error : "libcrypto.so.3 could not be loaded";
}

/// libcrypto's function `name`, or NULL when libcrypto is not there (callers then fail softly).
static inline void *hrb_crypto_function(const char *name) {
    void *library = hrb_crypto_library();
    return library != NULL ? dlsym(library, name) : NULL;
}
#define HRB_CRYPTO(name) __typeof__(&name) function = (__typeof__(&name))hrb_crypto_function(#name)

static inline BIO *hrb_BIO_new_mem_buf(const void *buffer, int length) {
    HRB_CRYPTO(BIO_new_mem_buf);
    return function ? function(buffer, length) : NULL;
}
static inline int hrb_BIO_free(BIO *bio) {
    HRB_CRYPTO(BIO_free);
    return function ? function(bio) : 0;
}
static inline EVP_PKEY *hrb_PEM_read_bio_PrivateKey(BIO *bio) {
    HRB_CRYPTO(PEM_read_bio_PrivateKey);
    return function ? function(bio, NULL, NULL, NULL) : NULL;
}
static inline int hrb_EVP_PKEY_get_base_id(const EVP_PKEY *key) {
    HRB_CRYPTO(EVP_PKEY_get_base_id);
    return function ? function(key) : 0;
}
static inline void hrb_EVP_PKEY_free(EVP_PKEY *key) {
    HRB_CRYPTO(EVP_PKEY_free);
    if (function) function(key);
}
static inline int hrb_EVP_PKEY_get_utf8_string_param(const EVP_PKEY *key, const char *name, char *text, size_t size, size_t *length) {
    HRB_CRYPTO(EVP_PKEY_get_utf8_string_param);
    return function ? function(key, name, text, size, length) : 0;
}
static inline EVP_MD_CTX *hrb_EVP_MD_CTX_new(void) {
    HRB_CRYPTO(EVP_MD_CTX_new);
    return function ? function() : NULL;
}
static inline void hrb_EVP_MD_CTX_free(EVP_MD_CTX *context) {
    HRB_CRYPTO(EVP_MD_CTX_free);
    if (function) function(context);
}
/// EVP_DigestSignInit with SHA-256 (EVP_sha256() comes from the same library).
static inline int hrb_EVP_DigestSignInit_sha256(EVP_MD_CTX *context, EVP_PKEY *key) {
    HRB_CRYPTO(EVP_DigestSignInit);
    __typeof__(&EVP_sha256) sha256 = (__typeof__(&EVP_sha256))hrb_crypto_function("EVP_sha256");
    return function && sha256 ? function(context, NULL, sha256(), NULL, key) : 0;
}
static inline int hrb_EVP_DigestSign(EVP_MD_CTX *context, unsigned char *signature, size_t *length,
                                     const unsigned char *message, size_t count) {
    HRB_CRYPTO(EVP_DigestSign);
    return function ? function(context, signature, length, message, count) : 0;
}
static inline ECDSA_SIG *hrb_d2i_ECDSA_SIG(const unsigned char **cursor, long length) {
    HRB_CRYPTO(d2i_ECDSA_SIG);
    return function ? function(NULL, cursor, length) : NULL;
}
static inline void hrb_ECDSA_SIG_free(ECDSA_SIG *signature) {
    HRB_CRYPTO(ECDSA_SIG_free);
    if (function) function(signature);
}
/// r and s, each left-padded to `width` bytes into `r` and `s`; the bytes written (2 × width), or -1.
static inline int hrb_ECDSA_SIG_raw(const ECDSA_SIG *signature, unsigned char *r, unsigned char *s, int width) {
    HRB_CRYPTO(BN_bn2binpad);
    __typeof__(&ECDSA_SIG_get0_r) getR = (__typeof__(&ECDSA_SIG_get0_r))hrb_crypto_function("ECDSA_SIG_get0_r");
    __typeof__(&ECDSA_SIG_get0_s) getS = (__typeof__(&ECDSA_SIG_get0_s))hrb_crypto_function("ECDSA_SIG_get0_s");
    if (!function || !getR || !getS) return -1;
    int first = function(getR(signature), r, width);
    int second = function(getS(signature), s, width);
    return first < 0 || second < 0 ? -1 : first + second;
}
static inline unsigned long hrb_ERR_get_error(void) {
    HRB_CRYPTO(ERR_get_error);
    return function ? function() : 0;
}
static inline void hrb_ERR_error_string_n(unsigned long code, char *text, size_t size) {
    HRB_CRYPTO(ERR_error_string_n);
    if (function) function(code, text, size);
}
static inline void hrb_ERR_clear_error(void) {
    HRB_CRYPTO(ERR_clear_error);
    if (function) function();
}
