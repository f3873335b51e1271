// libcurl (Debian libcurl4-openssl-dev), loaded on first use with dlopen instead of at start:
// a run without a network sink never maps it and the ~30 libraries it pulls in (OpenSSL, GnuTLS,
// Kerberos, LDAP, …), which were ~5 MB of every run's memory and most of its start-up. Swift calls
// these hrb_ wrappers only (the module links nothing, so a direct call fails to link).
// curl_easy_setopt/getinfo are variadic, which Swift cannot call: a typed wrapper per argument type.
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdatomic.h>

static inline void *hrb_curl_library(void) {
    static void *_Atomic library;
    void *handle = atomic_load_explicit(&library, memory_order_acquire);
    if (handle == NULL) {
        handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
        if (handle != NULL) atomic_store_explicit(&library, handle, memory_order_release);
    }
    return handle;
}

/// NULL when libcurl is loaded; else why not (dlerror's text).
static inline const char *hrb_curl_unavailable(void) {
    if (hrb_curl_library() != NULL) return NULL;
    const char *error = dlerror();
    return error != NULL ? error : "libcurl.so.4 could not be loaded";
}

/// libcurl's function `name`, or NULL when libcurl is not there (callers then fail softly).
static inline void *hrb_curl_function(const char *name) {
    void *library = hrb_curl_library();
    return library != NULL ? dlsym(library, name) : NULL;
}
#define HRB_CURL(name) __typeof__(&name) function = (__typeof__(&name))hrb_curl_function(#name)

static inline CURLcode hrb_curl_global_init(long flags) {
    HRB_CURL(curl_global_init);
    return function ? function(flags) : CURLE_FAILED_INIT;
}
static inline CURL *hrb_curl_easy_init(void) {
    HRB_CURL(curl_easy_init);
    return function ? function() : NULL;
}
static inline void hrb_curl_easy_cleanup(CURL *handle) {
    HRB_CURL(curl_easy_cleanup);
    if (function) function(handle);
}
static inline void hrb_curl_easy_reset(CURL *handle) {
    HRB_CURL(curl_easy_reset);
    if (function) function(handle);
}
static inline CURLcode hrb_curl_easy_perform(CURL *handle) {
    HRB_CURL(curl_easy_perform);
    return function ? function(handle) : CURLE_FAILED_INIT;
}
static inline const char *hrb_curl_easy_strerror(CURLcode code) {
    HRB_CURL(curl_easy_strerror);
    return function ? function(code) : "libcurl is not loaded";
}
static inline struct curl_slist *hrb_curl_slist_append(struct curl_slist *list, const char *line) {
    HRB_CURL(curl_slist_append);
    return function ? function(list, line) : list;
}
static inline void hrb_curl_slist_free_all(struct curl_slist *list) {
    HRB_CURL(curl_slist_free_all);
    if (function) function(list);
}

static inline CURLcode hrb_curl_set_long(CURL *handle, CURLoption option, long value) {
    HRB_CURL(curl_easy_setopt);
    return function ? function(handle, option, value) : CURLE_FAILED_INIT;
}
static inline CURLcode hrb_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    HRB_CURL(curl_easy_setopt);
    return function ? function(handle, option, value) : CURLE_FAILED_INIT;
}
static inline CURLcode hrb_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    HRB_CURL(curl_easy_setopt);
    return function ? function(handle, option, value) : CURLE_FAILED_INIT;
}
static inline CURLcode hrb_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    HRB_CURL(curl_easy_setopt);
    return function ? function(handle, option, value) : CURLE_FAILED_INIT;
}
typedef size_t (*hrb_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode hrb_curl_set_write_callback(CURL *handle, hrb_curl_write_callback callback) {
    HRB_CURL(curl_easy_setopt);
    return function ? function(handle, CURLOPT_WRITEFUNCTION, callback) : CURLE_FAILED_INIT;
}
static inline CURLcode hrb_curl_set_header_callback(CURL *handle, hrb_curl_write_callback callback) {
    HRB_CURL(curl_easy_setopt);
    return function ? function(handle, CURLOPT_HEADERFUNCTION, callback) : CURLE_FAILED_INIT;
}
static inline CURLcode hrb_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    HRB_CURL(curl_easy_getinfo);
    return function ? function(handle, info, value) : CURLE_FAILED_INIT;
}
