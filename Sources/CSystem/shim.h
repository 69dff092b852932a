#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

/* renameat2(2) flags (linux/fs.h): the Glibc module declares neither them nor renameat2. */
enum {
    CINEMATIC_RENAME_NOREPLACE = 1 << 0,
    CINEMATIC_RENAME_EXCHANGE = 1 << 1,
};

/* renameat2(2) through its system call: -1 and errno on failure (ENOSYS on a kernel without
 * it, EINVAL for a flag the file system does not support). */
static inline int cinematic_renameat2(int old_dir, const char *old_path, int new_dir, const char *new_path, unsigned flags) {
    return (int)syscall(SYS_renameat2, old_dir, old_path, new_dir, new_path, flags);
}
