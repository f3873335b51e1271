// libmosquitto (Debian libmosquitto-dev), loaded on first use with dlopen (as libcurl and libcrypto
// are, see CCurl): a run without an MQTT sink never maps it or the TLS libraries it pulls in. Swift
// calls these hrb_ wrappers only (the module links nothing, so a direct call fails to link).
#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <dlfcn.h>
#include <stdatomic.h>

static inline void *hrb_mosquitto_library(void) {
    static void *_Atomic library;
    void *handle = atomic_load_explicit(&library, memory_order_acquire);
    if (handle == NULL) {
        handle = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
        if (handle != NULL) atomic_store_explicit(&library, handle, memory_order_release);
    }
    return handle;
}

/// NULL when libmosquitto is loaded; else why not (dlerror's text).
static inline const char *hrb_mosquitto_unavailable(void) {
    if (hrb_mosquitto_library() != NULL) return NULL;
    const char *error = dlerror();
    return error != NULL ? error : "libmosquitto.so.1 could not be loaded";
}

/// libmosquitto's function `name`, or NULL when the library is not there (callers then fail softly).
static inline void *hrb_mosquitto_function(const char *name) {
    void *library = hrb_mosquitto_library();
    return library != NULL ? dlsym(library, name) : NULL;
}
#define HRB_MOSQ(name) __typeof__(&name) function = (__typeof__(&name))hrb_mosquitto_function(#name)

static inline int hrb_mosquitto_lib_init(void) {
    HRB_MOSQ(mosquitto_lib_init);
    return function ? function() : MOSQ_ERR_NOT_SUPPORTED;
}
static inline struct mosquitto *hrb_mosquitto_new(const char *id, bool clean_session, void *context) {
    HRB_MOSQ(mosquitto_new);
    return function ? function(id, clean_session, context) : NULL;
}
static inline void hrb_mosquitto_destroy(struct mosquitto *client) {
    HRB_MOSQ(mosquitto_destroy);
    if (function) function(client);
}
static inline int hrb_mosquitto_protocol_version(struct mosquitto *client, int version) {
    HRB_MOSQ(mosquitto_int_option);
    return function ? function(client, MOSQ_OPT_PROTOCOL_VERSION, version) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_username_pw_set(struct mosquitto *client, const char *username, const char *password) {
    HRB_MOSQ(mosquitto_username_pw_set);
    return function ? function(client, username, password) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_tls_set(struct mosquitto *client, const char *ca_file, const char *ca_directory,
                                        const char *certificate_file, const char *key_file) {
    HRB_MOSQ(mosquitto_tls_set);
    return function ? function(client, ca_file, ca_directory, certificate_file, key_file, NULL) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_will_set(struct mosquitto *client, const char *topic, int length, const void *payload, int qos, bool retain) {
    HRB_MOSQ(mosquitto_will_set_v5);
    return function ? function(client, topic, length, payload, qos, retain, NULL) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_reconnect_delay_set(struct mosquitto *client, unsigned int delay, unsigned int maximum) {
    HRB_MOSQ(mosquitto_reconnect_delay_set);
    return function ? function(client, delay, maximum, true) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_connect_async(struct mosquitto *client, const char *host, int port, int keep_alive) {
    HRB_MOSQ(mosquitto_connect_async);
    return function ? function(client, host, port, keep_alive) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_reconnect_async(struct mosquitto *client) {
    HRB_MOSQ(mosquitto_reconnect_async);
    return function ? function(client) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_loop_start(struct mosquitto *client) {
    HRB_MOSQ(mosquitto_loop_start);
    return function ? function(client) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_loop_stop(struct mosquitto *client, bool force) {
    HRB_MOSQ(mosquitto_loop_stop);
    return function ? function(client, force) : MOSQ_ERR_NOT_SUPPORTED;
}
static inline int hrb_mosquitto_disconnect(struct mosquitto *client) {
    HRB_MOSQ(mosquitto_disconnect_v5);
    return function ? function(client, 0, NULL) : MOSQ_ERR_NOT_SUPPORTED;
}
/// Publishes with MQTT 5's message expiry interval when `expiry_seconds` > 0 (MQTT 3.1.1 has none:
/// pass 0). `message_id` receives the id the broker's acknowledgement will name.
static inline int hrb_mosquitto_publish(struct mosquitto *client, int *message_id, const char *topic, int length,
                                        const void *payload, int qos, bool retain, unsigned int expiry_seconds) {
    HRB_MOSQ(mosquitto_publish_v5);
    __typeof__(&mosquitto_property_add_int32) add = (__typeof__(&mosquitto_property_add_int32))hrb_mosquitto_function("mosquitto_property_add_int32");
    __typeof__(&mosquitto_property_free_all) free_all = (__typeof__(&mosquitto_property_free_all))hrb_mosquitto_function("mosquitto_property_free_all");
    if (!function || !add || !free_all) return MOSQ_ERR_NOT_SUPPORTED;
    mosquitto_property *properties = NULL;
    if (expiry_seconds > 0) {
        int added = add(&properties, MQTT_PROP_MESSAGE_EXPIRY_INTERVAL, expiry_seconds);
        if (added != MOSQ_ERR_SUCCESS) return added;
    }
    int result = function(client, message_id, topic, length, payload, qos, retain, properties);
    free_all(&properties);
    return result;
}
static inline int hrb_mosquitto_subscribe(struct mosquitto *client, const char *pattern, int qos) {
    HRB_MOSQ(mosquitto_subscribe);
    return function ? function(client, NULL, pattern, qos) : MOSQ_ERR_NOT_SUPPORTED;
}
typedef void (*hrb_mosquitto_connect_callback)(struct mosquitto *, void *, int, int, const mosquitto_property *);
typedef void (*hrb_mosquitto_disconnect_callback)(struct mosquitto *, void *, int, const mosquitto_property *);
typedef void (*hrb_mosquitto_publish_callback)(struct mosquitto *, void *, int, int, const mosquitto_property *);
typedef void (*hrb_mosquitto_message_callback)(struct mosquitto *, void *, const struct mosquitto_message *);
static inline void hrb_mosquitto_callbacks_set(struct mosquitto *client, hrb_mosquitto_connect_callback connected,
                                               hrb_mosquitto_disconnect_callback disconnected,
                                               hrb_mosquitto_publish_callback published, hrb_mosquitto_message_callback received) {
    HRB_MOSQ(mosquitto_connect_v5_callback_set);
    __typeof__(&mosquitto_disconnect_v5_callback_set) on_disconnect = (__typeof__(&mosquitto_disconnect_v5_callback_set))hrb_mosquitto_function("mosquitto_disconnect_v5_callback_set");
    __typeof__(&mosquitto_publish_v5_callback_set) on_publish = (__typeof__(&mosquitto_publish_v5_callback_set))hrb_mosquitto_function("mosquitto_publish_v5_callback_set");
    __typeof__(&mosquitto_message_callback_set) on_message = (__typeof__(&mosquitto_message_callback_set))hrb_mosquitto_function("mosquitto_message_callback_set");
    if (!function || !on_disconnect || !on_publish || !on_message) return;
    function(client, connected);
    on_disconnect(client, disconnected);
    on_publish(client, published);
    on_message(client, received);
}
typedef void (*hrb_mosquitto_log_callback)(struct mosquitto *, void *, int, const char *);
static inline void hrb_mosquitto_log_callback_set(struct mosquitto *client, hrb_mosquitto_log_callback logged) {
    HRB_MOSQ(mosquitto_log_callback_set);
    if (function) function(client, logged);
}
static inline const char *hrb_mosquitto_strerror(int code) {
    HRB_MOSQ(mosquitto_strerror);
    return function ? function(code) : "libmosquitto is not loaded";
}
/// The CONNACK or MQTT 5 reason code's text.
static inline const char *hrb_mosquitto_reason_string(int code) {
    HRB_MOSQ(mosquitto_reason_string);
    return function ? function(code) : "libmosquitto is not loaded";
}
