// book: one process (search/book/book_command.h has the flags and exit
// codes).
#include "search/book/book_command.h"

int main(int argc, char** argv) {
  mnk::Cluster alone;
  return mnk::RunBook(argc, argv, alone);
}
