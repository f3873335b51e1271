// glibc calls Swift cannot import as they are (variadic, or declared only under _GNU_SOURCE),
// wrapped. No library to link: libc.
#define _GNU_SOURCE
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
