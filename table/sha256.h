// The SHA-256 of a table's file: what names its content (verify's work dir
// records it, so that a resumed verify refuses another table). A library
// of its own: it is the only use of OpenSSL's libcrypto, which the readers
// (and the WebAssembly build) do without.
//
//   const mnk::Table table = *mnk::Table::Load("t.mnk");
//   std::string hex = mnk::Sha256(table);  // as `sha256sum t.mnk` prints it
#ifndef MNK_TABLE_SHA256_H_
#define MNK_TABLE_SHA256_H_

#include <string>

#include "table/table.h"

namespace mnk {

// The SHA-256 of every byte of `table`'s file, in lowercase hex. Reads the
// whole file.
std::string Sha256(const Table& table);

}  // namespace mnk

#endif  // MNK_TABLE_SHA256_H_
