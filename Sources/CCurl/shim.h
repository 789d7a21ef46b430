// libcurl (Debian libcurl4-openssl-dev): the HTTP(S) transport of the Storage module's S3 client —
// keep-alive connections, TLS, proxies, timeouts. Requests are signed by our own SigV4 signer (libcurl
// only carries them).
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these one-line
// wrappers give each argument type its own function. The type-checking macros of typecheck-gcc.h
// are turned off (the wrappers are the type check).
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/// The write, header and read callbacks' C type.
typedef size_t (*lk_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode lk_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lk_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lk_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lk_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lk_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lk_curl_set_callback(CURL *handle, CURLoption option, lk_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lk_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode lk_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// The loaded library's version ("7.88.1"): curl_version_info(CURLVERSION_NOW), a macro Swift cannot see.
static inline const char *lk_curl_version(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info ? info->version : "unknown";
}
