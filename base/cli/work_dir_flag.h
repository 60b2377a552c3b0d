// --work_dir (or --work-dir), defined once for the tools that keep their
// work in a folder so that a stopped run resumes (solve, verify, book).
//
//   const std::string dir = mnk::WorkDirFromFlag();  // "" when not given
#ifndef MNK_BASE_CLI_WORK_DIR_FLAG_H_
#define MNK_BASE_CLI_WORK_DIR_FLAG_H_

#include <string>

#include "absl/flags/declare.h"

ABSL_DECLARE_FLAG(std::string, work_dir);

namespace mnk {

// The folder --work_dir names, as the program must open it (UserPath); ""
// when the flag is left out.
std::string WorkDirFromFlag();

}  // namespace mnk

#endif  // MNK_BASE_CLI_WORK_DIR_FLAG_H_
