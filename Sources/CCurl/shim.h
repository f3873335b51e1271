// libcurl (Debian libcurl4-openssl-dev). curl_easy_setopt/getinfo are variadic, which Swift cannot
// call, so each argument type gets a typed inline wrapper.
#include <curl/curl.h>

static inline CURLcode hrb_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hrb_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hrb_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hrb_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*hrb_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode hrb_curl_set_write_callback(CURL *handle, hrb_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode hrb_curl_set_header_callback(CURL *handle, hrb_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
static inline CURLcode hrb_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
