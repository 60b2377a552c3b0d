// Table::Sha256 (table/table.h), in a file of its own: it is the only use of
// OpenSSL's libcrypto, which the WebAssembly build (//wasm) leaves out.
#include <openssl/evp.h>

#include "absl/strings/escaping.h"
#include "table/table.h"

namespace mnk {

std::string Table::Sha256() const {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(t_->data(), t_->size, digest, &length, EVP_sha256(), nullptr);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), length));
}

}  // namespace mnk
