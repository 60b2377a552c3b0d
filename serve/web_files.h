// The web page's files (serve/web/), compiled into the server by
// //data:embed: serve needs no file beside it.
//
//   for (const mnk::BuiltinFile& f : mnk::WebFiles()) ...  // "index.html"
#ifndef MNK_SERVE_WEB_FILES_H_
#define MNK_SERVE_WEB_FILES_H_

#include <vector>

#include "data/builtin.h"

namespace mnk {

const std::vector<BuiltinFile>& WebFiles();

}  // namespace mnk

#endif  // MNK_SERVE_WEB_FILES_H_
