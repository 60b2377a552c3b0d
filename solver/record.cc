#include "solver/record.h"

namespace mnk {

absl::string_view ValueName(Value v) {
  switch (v) {
    case Value::kWin:
      return "win";
    case Value::kDraw:
      return "draw";
    case Value::kLoss:
      return "loss";
    case Value::kUnreachable:
      break;
  }
  return "unreachable";
}

}  // namespace mnk
