// libmicrohttpd (Debian libmicrohttpd-dev; TLS through GnuTLS), loaded on first use with dlopen as
// libcurl is (see CCurl): a run without --listen never maps it or GnuTLS. Swift calls these hrb_
// wrappers only (the module links nothing, so a direct call fails to link). MHD_start_daemon and
// the info getters are variadic, which Swift cannot call: typed wrappers; the error logger takes a
// va_list, formatted here into one line for a Swift callback.
#include <microhttpd.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

static inline void *hrb_mhd_library(void) {
    static void *_Atomic library;
    void *handle = atomic_load_explicit(&library, memory_order_acquire);
    if (handle == NULL) {
        handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
        if (handle != NULL) atomic_store_explicit(&library, handle, memory_order_release);
    }
    return handle;
}

/// NULL when libmicrohttpd is loaded; else why not (dlerror's text).
static inline const char *hrb_mhd_unavailable(void) {
    if (hrb_mhd_library() != NULL) return NULL;
    const char *error = dlerror();
    return error != NULL ? error : "libmicrohttpd.so.12 could not be loaded";
}

static inline void *hrb_mhd_function(const char *name) {
    void *library = hrb_mhd_library();
    return library != NULL ? dlsym(library, name) : NULL;
}
#define HRB_MHD(name) __typeof__(&name) function = (__typeof__(&name))hrb_mhd_function(#name)

/// One formatted line of the library's error log, for Swift.
typedef void (*hrb_mhd_log_line)(void *context, const char *line);
struct hrb_mhd_logger {
    hrb_mhd_log_line callback;
    void *context;
};
static inline void hrb_mhd_format_log(void *cls, const char *format, va_list arguments) {
    const struct hrb_mhd_logger *logger = cls;
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    logger->callback(logger->context, line);
}

/// What the daemon is started with; every limit is the caller's (HTTPServer's Limits say why each).
struct hrb_mhd_settings {
    unsigned int flags;
    /// The address to bind (NULL: `listen_fd` is an open listening socket, systemd's).
    const struct sockaddr *address;
    int listen_fd;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int idle_timeout_seconds;
    size_t connection_memory_limit;
    /// PEM text (NUL-terminated) of the certificate chain and its key; NULL for plain HTTP.
    const char *certificate;
    const char *key;
    const struct hrb_mhd_logger *logger;
};

static inline struct MHD_Daemon *hrb_mhd_start(const struct hrb_mhd_settings *settings,
                                               MHD_AccessHandlerCallback handler, void *handler_context,
                                               MHD_RequestCompletedCallback completed,
                                               MHD_NotifyConnectionCallback notify) {
    HRB_MHD(MHD_start_daemon);
    if (function == NULL) return NULL;
    struct MHD_OptionItem options[16];
    int count = 0;
#define HRB_OPTION(name, number, pointer) options[count++] = (struct MHD_OptionItem){ (name), (intptr_t)(number), (void *)(pointer) }
    // The logger first: the library says so for options given before it.
    if (settings->logger != NULL) HRB_OPTION(MHD_OPTION_EXTERNAL_LOGGER, hrb_mhd_format_log, settings->logger);
    if (settings->address != NULL) HRB_OPTION(MHD_OPTION_SOCK_ADDR, 0, settings->address);
    else HRB_OPTION(MHD_OPTION_LISTEN_SOCKET, settings->listen_fd, NULL);
    HRB_OPTION(MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL);
    HRB_OPTION(MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_ip_connection_limit, NULL);
    HRB_OPTION(MHD_OPTION_CONNECTION_TIMEOUT, settings->idle_timeout_seconds, NULL);
    HRB_OPTION(MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit, NULL);
    HRB_OPTION(MHD_OPTION_STRICT_FOR_CLIENT, 1, NULL);
    HRB_OPTION(MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context);
    HRB_OPTION(MHD_OPTION_NOTIFY_CONNECTION, notify, handler_context);
    if (settings->certificate != NULL) {
        HRB_OPTION(MHD_OPTION_HTTPS_MEM_CERT, 0, settings->certificate);
        HRB_OPTION(MHD_OPTION_HTTPS_MEM_KEY, 0, settings->key);
    }
    HRB_OPTION(MHD_OPTION_END, 0, NULL);
#undef HRB_OPTION
    return function(settings->flags, 0, NULL, NULL, handler, handler_context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// Stops accepting connections, serving those already open; the listening socket is returned
/// (-1 if none), to be closed by the caller after `hrb_mhd_stop`.
static inline int hrb_mhd_quiesce(struct MHD_Daemon *daemon) {
    HRB_MHD(MHD_quiesce_daemon);
    return function ? function(daemon) : -1;
}

static inline void hrb_mhd_stop(struct MHD_Daemon *daemon) {
    HRB_MHD(MHD_stop_daemon);
    if (function) function(daemon);
}

/// The listening socket the daemon uses (to learn the port a bind to port 0 got); -1 if unknown.
static inline int hrb_mhd_listen_fd(struct MHD_Daemon *daemon) {
    HRB_MHD(MHD_get_daemon_info);
    if (function == NULL) return -1;
    const union MHD_DaemonInfo *info = function(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return info != NULL ? info->listen_fd : -1;
}

/// Calls `iterator` with each request header field, in order.
static inline int hrb_mhd_each_header(struct MHD_Connection *connection, MHD_KeyValueIterator iterator, void *context) {
    HRB_MHD(MHD_get_connection_values);
    return function ? function(connection, MHD_HEADER_KIND, iterator, context) : 0;
}

/// The connection's socket (a request that takes too long is cut off by shutting it down).
static inline int hrb_mhd_connection_fd(struct MHD_Connection *connection) {
    HRB_MHD(MHD_get_connection_info);
    if (function == NULL) return -1;
    const union MHD_ConnectionInfo *info = function(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? info->connect_fd : -1;
}

static inline struct MHD_Response *hrb_mhd_response_copying(size_t size, const void *bytes) {
    HRB_MHD(MHD_create_response_from_buffer);
    return function ? function(size, (void *)bytes, MHD_RESPMEM_MUST_COPY) : NULL;
}

/// A response whose body `reader` produces as it is sent (unknown length: chunked).
static inline struct MHD_Response *hrb_mhd_response_streaming(size_t block_size, MHD_ContentReaderCallback reader,
                                                              void *context, MHD_ContentReaderFreeCallback release) {
    HRB_MHD(MHD_create_response_from_callback);
    return function ? function(MHD_SIZE_UNKNOWN, block_size, reader, context, release) : NULL;
}

/// No idle timeout on this connection from now on (MHD_set_connection_option is variadic): a
/// streamed body that is quiet between its own keep-alives must not be cut by the daemon's.
static inline int hrb_mhd_no_idle_timeout(struct MHD_Connection *connection) {
    HRB_MHD(MHD_set_connection_option);
    return function ? function(connection, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)0) == MHD_YES : 0;
}

static inline int hrb_mhd_add_header(struct MHD_Response *response, const char *name, const char *value) {
    HRB_MHD(MHD_add_response_header);
    return function ? function(response, name, value) == MHD_YES : 0;
}

static inline int hrb_mhd_queue(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response) {
    HRB_MHD(MHD_queue_response);
    return function ? function(connection, status, response) == MHD_YES : 0;
}

static inline void hrb_mhd_release(struct MHD_Response *response) {
    HRB_MHD(MHD_destroy_response);
    if (function) function(response);
}
