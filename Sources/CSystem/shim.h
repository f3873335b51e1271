// glibc calls Swift cannot import as they are (variadic, or declared only under _GNU_SOURCE),
// wrapped. No library to link: libc.
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>

/// No transparent huge pages for this process: a bridge that needs a few MB would get whole
/// 2 MB pages for thread stacks and heaps where the system enables them always (Debian does).
static inline int hr_disable_transparent_huge_pages(void) {
    return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}

/// Names the calling thread (15 bytes at most), as `top -H` and debuggers show it.
static inline int hr_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/// An anonymous in-memory file (close-on-exec): bytes the binary carries, read like a file.
static inline int hr_memory_file(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}

/// The terminal's size in columns and rows (TIOCGWINSZ; ioctl is variadic): -1 when `fd` is no
/// terminal or it reports no size (a serial console may say 0 × 0).
static inline int hr_terminal_size(int fd, int *columns, int *rows) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0 || size.ws_row == 0) return -1;
    *columns = size.ws_col;
    *rows = size.ws_row;
    return 0;
}

/// Swift concurrency's hooks for taking over its global executor (the Swift runtime's
/// Concurrency.h declares them the same way: function pointers of the Swift calling convention,
/// set once before any task). `TaskQueue` sets them.
#define HR_SET_BEFORE_ANY_TASK __attribute__((swift_attr("nonisolated(unsafe)")))
extern void *_Nullable swift_task_enqueueGlobal_hook HR_SET_BEFORE_ANY_TASK;
extern void *_Nullable swift_task_enqueueGlobalWithDelay_hook HR_SET_BEFORE_ANY_TASK;
extern void *_Nullable swift_task_enqueueGlobalWithDeadline_hook HR_SET_BEFORE_ANY_TASK;

/// epoll(7) for `EventLoop`. <sys/epoll.h> is not included: it brings <sys/select.h> in, whose fd_set
/// under _GNU_SOURCE then differs from the Glibc module's. Its struct and calls are declared here as
/// the kernel's ABI has them: the event packed on x86-64 only (glibc's __EPOLL_PACKED), the data a
/// 64-bit union everywhere. Linked to libc's own functions by name.
struct hr_epoll_event {
    uint32_t events;
    uint64_t data;
}
#if defined(__x86_64__)
__attribute__((packed))
#endif
;
extern int hr_epoll_create1(int flags) __asm__("epoll_create1");
extern int hr_epoll_ctl(int epoll, int operation, int fd, struct hr_epoll_event *_Nullable event) __asm__("epoll_ctl");
extern int hr_epoll_wait_raw(int epoll, struct hr_epoll_event *_Nonnull events, int capacity, int timeout) __asm__("epoll_wait");

/// Adds `fd` for reading (EPOLLIN: readable or hung up); `context` comes back when it is ready.
static inline int hr_epoll_add(int epoll, int fd, void *_Nonnull context) {
    struct hr_epoll_event event = { .events = 0x001 /* EPOLLIN */, .data = (uint64_t)(uintptr_t)context };
    return hr_epoll_ctl(epoll, 1 /* EPOLL_CTL_ADD */, fd, &event);
}

static inline int hr_epoll_remove(int epoll, int fd) {
    return hr_epoll_ctl(epoll, 2 /* EPOLL_CTL_DEL */, fd, 0);
}

/// Sleeps until descriptors are ready (no timeout); their contexts into `contexts`, at most 16.
static inline int hr_epoll_wait(int epoll, void *_Nullable *_Nonnull contexts, int capacity) {
    struct hr_epoll_event events[16];
    int count = hr_epoll_wait_raw(epoll, events, capacity < 16 ? capacity : 16, -1);
    for (int index = 0; index < count; index++) contexts[index] = (void *)(uintptr_t)events[index].data;
    return count;
}
