#include "solver/cli/cli.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "solver/game/printable.h"

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

std::string& ToolNameStorage() {
  static std::string* name = new std::string("mnk");
  return *name;
}

}  // namespace

void SetToolName(absl::string_view name) {
  ToolNameStorage() = std::string(name);
}

const std::string& ToolName() { return ToolNameStorage(); }

int Fail(int code, absl::string_view message) {
  std::fprintf(stderr, "%s: %.*s\n", ToolName().c_str(),
               static_cast<int>(message.size()), message.data());
  return code;
}

int OutputFailed(absl::string_view what) {
  return Fail(kExitOutput,
              absl::StrCat("cannot write ", what, what.empty() ? "" : " ",
                           "to standard output: ", std::strerror(errno)));
}

int TableExit(const absl::Status& status) {
  return absl::IsResourceExhausted(status) ? kExitMemory : kExitTable;
}

absl::StatusOr<int> ThreadsFlag(int threads) {
  if (threads < 0 || threads > kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--threads=", threads, ": expected 0 (one per core) to ", kMaxThreads));
  }
  if (threads > 0) return threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

absl::StatusOr<uint64_t> BytesFlag(absl::string_view flag,
                                   absl::string_view text) {
  int shift = 0;
  absl::string_view digits = text;
  if (!digits.empty()) {
    const char* units = "KMGT";
    const char* unit = std::strchr(units, std::toupper(digits.back()));
    if (unit != nullptr && *unit != '\0') {
      shift = 10 * static_cast<int>(unit - units + 1);
      digits.remove_suffix(1);
    }
  }
  uint64_t n = 0;
  if (digits.empty() || !absl::SimpleAtoi(digits, &n) || digits[0] == '-' ||
      digits[0] == '+' || n == 0 || n > (~uint64_t{0} >> shift)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, "=", Printable(text),
        ": expected a positive number of bytes, optionally with K, M, G or T "
        "(e.g. 12G)"));
  }
  return n << shift;
}

std::string Bytes(uint64_t n) {
  if (n < (uint64_t{1} << 20)) {
    return absl::StrFormat("%.0f KiB", std::ceil(n / 1024.0));
  }
  if (n < (uint64_t{1} << 30)) {
    return absl::StrFormat("%.2f MiB", n / 1048576.0);
  }
  return absl::StrFormat("%.2f GiB", n / 1073741824.0);
}

namespace {

// "--NAME= is empty: ..." for the first flag of the tool's given with an
// empty value ("--work-dir="): never a default, always a slip. `dashes` as
// in StartTool.
std::optional<std::string> EmptyFlag(int argc, char** argv, bool dashes) {
  for (int i = 1; i < argc && absl::string_view(argv[i]) != "--"; ++i) {
    absl::string_view arg = argv[i];
    if (!absl::ConsumeSuffix(&arg, "=") || !absl::ConsumePrefix(&arg, "-") ||
        absl::StrContains(arg, '=')) {
      continue;
    }
    absl::ConsumePrefix(&arg, "-");
    std::string name(arg);
    if (dashes) std::replace(name.begin(), name.end(), '-', '_');
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    // An optional text may be given empty: the tool judges it (play's
    // --position='' is a bad position).
    if (flag == nullptr || flag->IsOfType<std::optional<std::string>>()) {
      continue;
    }
    const bool number = flag->IsOfType<int>() || flag->IsOfType<uint64_t>() ||
                        flag->IsOfType<double>() ||
                        flag->IsOfType<std::optional<int>>();
    return absl::StrCat("--", arg, "= is empty: expected ",
                        number ? "a number" : "a value",
                        "; leave the flag out for its default");
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> StartTool(absl::string_view name, absl::string_view usage,
                             int argc, char** argv, bool dashes) {
  SetToolName(name);
  absl::SetProgramUsageMessage(usage);
  if (HelpAsked(argc, argv)) return PrintHelp(name);
  // Flag names may take '-' for '_' (--work-dir is --work_dir).
  std::vector<std::string> normalized(argv, argv + argc);
  std::vector<char*> args;
  for (std::string& arg : normalized) {
    if (dashes && absl::StartsWith(arg, "--")) {
      const size_t end = std::min(arg.find('='), arg.size());
      std::replace(arg.begin() + 2, arg.begin() + end, '-', '_');
    }
    args.push_back(arg.data());
  }
  if (std::optional<std::string> empty = EmptyFlag(argc, argv, dashes)) {
    return Fail(kExitUsage, *empty);
  }
  const std::vector<char*> rest =
      absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
  if (rest.size() > 1) {
    return Fail(kExitUsage, absl::StrCat("unexpected argument '",
                                         Printable(rest[1]), "'; see --help"));
  }
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error
  return std::nullopt;
}

int RunGuarded(const std::function<int()>& main,
               const std::function<std::string()>& hint) {
  try {
    return main();
  } catch (const std::bad_alloc&) {
    return Fail(kExitMemory,
                absl::StrCat("out of memory", hint ? hint() : std::string()));
  } catch (const std::system_error& e) {
    return Fail(kExitMemory, absl::StrCat("cannot start threads: ", e.what()));
  }
}

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
  return std::fflush(stdout) == 0 ? kExitOk : kExitOutput;
}

}  // namespace mnk
