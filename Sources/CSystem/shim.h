// glibc calls Swift cannot import as they are (variadic), wrapped. No library to link: libc.
#include <sys/prctl.h>

/// No transparent huge pages for this process: a bridge that needs a few MB would get whole
/// 2 MB pages for thread stacks and heaps where the system enables them always (Debian does).
static inline int hr_disable_transparent_huge_pages(void) {
    return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}
