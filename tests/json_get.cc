// json_get: reads JSON documents, one a line, from standard input and prints
// the values at the given JSON pointers, one a line, for each document, so
// that shell tests check fields rather than exact strings. Strings print
// with their quotes ("win"), a missing field prints <missing>, a line that
// is not JSON prints <invalid> and makes the exit status 1.
//
//   printf '{"a":{"b":[1,2]}}\n' | json_get /a/b/1 /c     # prints 2, <missing>
#include <iostream>
#include <string>

#include "nlohmann/json.hpp"

int main(int argc, char** argv) {
  int status = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    const nlohmann::ordered_json doc =
        nlohmann::ordered_json::parse(line, nullptr, false);
    if (doc.is_discarded()) {
      std::cout << "<invalid>\n";
      status = 1;
      continue;
    }
    for (int i = 1; i < argc; ++i) {
      const nlohmann::ordered_json::json_pointer pointer(argv[i]);
      std::cout << (doc.contains(pointer) ? doc.at(pointer).dump()
                                          : "<missing>")
                << "\n";
    }
  }
  return status;
}
