#include "base/cli/work_dir_flag.h"

#include "absl/flags/flag.h"
#include "base/cli/cli.h"

ABSL_FLAG(std::string, work_dir, "",
          "keep the work in this folder (created if missing), so that a "
          "stopped run resumes");

namespace mnk {

std::string WorkDirFromFlag() {
  return UserPath(absl::GetFlag(FLAGS_work_dir));
}

}  // namespace mnk
