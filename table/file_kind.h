// How messages name a file that is not a regular one: the table reader and
// the solver's work dir both refuse such files, in the same words.
//
//   struct stat st;
//   if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
//     return absl::FailedPreconditionError(
//         absl::StrCat(path, " is ", mnk::FileKind(st.st_mode), ", ..."));
//   }
#ifndef MNK_TABLE_FILE_KIND_H_
#define MNK_TABLE_FILE_KIND_H_

#include <sys/types.h>

namespace mnk {

// "a FIFO", "a character device", "a block device", "a socket", "a symbolic
// link", "a directory" or "a special file".
const char* FileKind(mode_t mode);

}  // namespace mnk

#endif  // MNK_TABLE_FILE_KIND_H_
