#include "base/cli/cli.h"

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
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/commandlineflag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "base/parallel/malloc_arena.h"
#include "base/parallel/parallel.h"
#include "base/version/version.h"
#include "rules/game/printable.h"

namespace mnk {
namespace {

// Whether the project defines `flag` (and not Abseil, whose own flags,
// --flagfile and the like, are defined in its absl/ sources).
bool OwnFlag(const absl::CommandLineFlag& flag) {
  return !absl::StrContains(flag.Filename(), "absl/");
}

absl::flat_hash_set<std::string>& GivenFlags() {
  static auto* given = new absl::flat_hash_set<std::string>();
  return *given;
}

// Records the flags named on a normalized command line, for FlagGiven.
void RecordGivenFlags(const std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size() && args[i] != "--"; ++i) {
    absl::string_view arg = args[i];
    if (!absl::ConsumePrefix(&arg, "-")) continue;
    absl::ConsumePrefix(&arg, "-");
    const absl::string_view name = arg.substr(0, arg.find('='));
    GivenFlags().insert(std::string(name));
    if (absl::StartsWith(name, "no")) {
      GivenFlags().insert(std::string(name.substr(2)));
    }
  }
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
  return DefaultThreads();
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
  if (n < (uint64_t{1} << 40)) {
    return absl::StrFormat("%.2f GiB", n / 1073741824.0);
  }
  return absl::StrFormat("%.2f TiB", n / 1099511627776.0);
}

namespace {

// The edit distance between two flag names (insertions, deletions,
// substitutions, and swaps of two neighbours).
int Distance(absl::string_view a, absl::string_view b) {
  std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// Abseil's own flags, which every tool takes.
bool AbseilFlag(absl::string_view name) {
  for (const char* builtin :
       {"help", "helpfull", "helpshort", "helppackage", "helpon", "helpmatch",
        "version", "only_check_args", "flagfile", "fromenv", "tryfromenv",
        "undefok"}) {
    if (name == builtin) return true;
  }
  return false;
}

// What is wrong with the first flag of the command line that the tool
// cannot take, if any: an unknown name (with the closest of the tool's own
// flags), or an empty value ("--work-dir=": never a default, always a
// slip; a flag of type std::optional<std::string> excepted, whose empty
// value the tool judges). `args` are normalized ('-' in a name as '_');
// `typed` as the user typed them, for messages.
std::optional<std::string> BadFlag(const std::vector<std::string>& args,
                                   char** typed) {
  for (size_t i = 1; i < args.size() && args[i] != "--"; ++i) {
    absl::string_view arg = args[i];
    if (!absl::ConsumePrefix(&arg, "-") || arg.empty()) continue;
    absl::ConsumePrefix(&arg, "-");
    const size_t eq = arg.find('=');
    const absl::string_view name = arg.substr(0, eq);
    const absl::string_view as_typed = typed[i];
    const absl::string_view shown = as_typed.substr(0, as_typed.find('='));
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr && absl::StartsWith(name, "no")) {
      flag = absl::FindCommandLineFlag(name.substr(2));  // --noquiet
    }
    if (flag == nullptr && !AbseilFlag(name)) {
      std::string best;
      int best_distance = 4;  // farther is no likely slip
      for (const auto& [own_name, own] : absl::GetAllFlags()) {
        if (!OwnFlag(*own)) continue;
        const int d = Distance(name, own_name);
        if (d < best_distance) {
          best_distance = d;
          best = std::string(own_name);
        }
      }
      std::replace(best.begin(), best.end(), '_', '-');
      return absl::StrCat(
          "unknown flag ", Printable(shown),
          best.empty() ? "" : absl::StrCat(": did you mean --", best, "?"),
          " (--help lists the flags)");
    }
    // A value given as the next argument ("--threads -1") is no flag.
    if (flag != nullptr && eq == absl::string_view::npos &&
        !flag->IsOfType<bool>()) {
      ++i;
      continue;
    }
    if (flag == nullptr || eq == absl::string_view::npos ||
        eq + 1 != arg.size() || flag->IsOfType<std::optional<std::string>>()) {
      continue;
    }
    const bool number = flag->IsOfType<int>() || flag->IsOfType<uint64_t>() ||
                        flag->IsOfType<double>() ||
                        flag->IsOfType<std::optional<int>>();
    return absl::StrCat(Printable(shown), "= is empty: expected ",
                        number ? "a number" : "a value",
                        "; leave the flag out for its default");
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> StartTool(absl::string_view name, absl::string_view usage,
                             int argc, char** argv) {
  SetToolName(name);
  absl::SetProgramUsageMessage(usage);
  absl::FlagsUsageConfig config;
  config.version_string = [] {
    return absl::StrCat(ToolName(), " ", kVersion, "\n");
  };
  absl::SetFlagsUsageConfig(config);
  if (HelpAsked(argc, argv)) return PrintHelp(name);
  // Flag names may take '-' for '_' (--work-dir is --work_dir).
  std::vector<std::string> normalized(argv, argv + argc);
  std::vector<char*> args;
  bool flags = true;
  for (std::string& arg : normalized) {
    if (arg == "--") flags = false;
    if (flags && absl::StartsWith(arg, "-")) {
      const size_t start = std::min(arg.find_first_not_of('-'), arg.size());
      const size_t end = std::max(start, std::min(arg.find('='), arg.size()));
      std::replace(arg.begin() + start, arg.begin() + end, '-', '_');
    }
    args.push_back(arg.data());
  }
  if (std::optional<std::string> bad = BadFlag(normalized, argv)) {
    return Fail(kExitUsage, *bad);
  }
  RecordGivenFlags(normalized);
  const std::vector<char*> rest =
      absl::ParseCommandLine(static_cast<int>(args.size()), args.data());
  if (rest.size() > 1) {
    return Fail(kExitUsage, absl::StrCat("unexpected argument '",
                                         Printable(rest[1]), "'; see --help"));
  }
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error
  UseOneMallocArena();
  return std::nullopt;
}

bool FlagGiven(absl::string_view name) { return GivenFlags().contains(name); }

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
    // Both spellings are taken: say so.
    const std::string also =
        name != flag->Name() ? absl::StrCat(" (or --", flag->Name(), ")") : "";
    std::string line = absl::StrCat("  --", name, also, "  ", help);
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
