// The project's version, written here and nowhere else (semantic
// versioning: major.minor.patch). Every surface reports it alike: the C
// library's mnk_version(), Python's mnk.__version__, the browser module's
// mnk.version, and every tool's --version ("play 1.0.0").
//
//   std::printf("%s\n", mnk::kVersion);  // 1.0.0
#ifndef MNK_BASE_VERSION_VERSION_H_
#define MNK_BASE_VERSION_VERSION_H_

namespace mnk {

inline constexpr char kVersion[] = "1.0.0";

}  // namespace mnk

#endif  // MNK_BASE_VERSION_VERSION_H_
