#include "table/sha256.h"

#include <openssl/evp.h>

#include "absl/strings/escaping.h"

namespace mnk {

std::string Sha256(const Table& table) {
  const absl::string_view bytes = table.bytes();
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(),
             nullptr);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), length));
}

}  // namespace mnk
