#include "solver/cli/cli.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace mnk {
namespace {

// Where the project's flags are defined: its own packages' files.
bool OwnFlag(const absl::CommandLineFlag& flag) {
  const std::string file = flag.Filename();
  for (const char* package : {"solver/", "table/", "player/"}) {
    if (absl::StrContains(file, package)) return true;
  }
  return false;
}

}  // namespace

std::string UserPath(absl::string_view path) {
  if (path.empty() || path[0] == '/') return std::string(path);
  const char* folder = std::getenv("BUILD_WORKING_DIRECTORY");
  if (folder == nullptr || folder[0] == '\0') return std::string(path);
  return absl::StrCat(folder, "/", path);
}

std::string AbsolutePath(absl::string_view path) {
  if (path.empty() || path[0] == '/') return std::string(path);
  char here[4096];
  if (getcwd(here, sizeof(here)) == nullptr) return std::string(path);
  return absl::StrCat(here, "/", absl::StripPrefix(path, "./"));
}

bool HelpAsked(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (arg == "--") return false;
    if (arg == "--help" || arg == "-help" || arg == "-h" ||
        arg == "--helpfull" || arg == "-helpfull") {
      return true;
    }
  }
  return false;
}

int PrintHelp(absl::string_view program) {
  std::vector<const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (OwnFlag(*flag)) flags.push_back(flag);
  }
  std::sort(flags.begin(), flags.end(),
            [](const auto* a, const auto* b) { return a->Name() < b->Name(); });
  std::string text =
      absl::StrCat(program, ": ", absl::ProgramUsageMessage(), "\n\nflags:\n");
  for (const absl::CommandLineFlag* flag : flags) {
    std::string name(flag->Name());
    std::replace(name.begin(), name.end(), '_', '-');
    const std::string help = flag->Help();
    std::string line = absl::StrCat("  --", name, "  ", help);
    const std::string value = flag->DefaultValue();
    if (!absl::StrContains(help, "default") && !value.empty()) {
      absl::StrAppend(&line, " (default: ", value, ")");
    }
    absl::StrAppend(&text, line, "\n");
  }
  std::fputs(text.c_str(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 6;
}

}  // namespace mnk
