/// ParseQuantity on arbitrary text: never crashes, never accepts a value off
/// the grid or out of range, and what it accepts prints back to itself.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "util/quantity.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  rescfg::QuantityError error;
  std::optional<rescfg::Quantity> q = rescfg::ParseQuantity(text, &error);
  if (!q) {
    if (error.message.empty()) std::abort();  // every refusal says why
    return 0;
  }
  if (q->ticks() < 0 || *q > rescfg::Quantity::Max()) std::abort();
  std::optional<rescfg::Quantity> again = rescfg::ParseQuantity(q->ToString());
  if (!again || *again != *q) std::abort();  // output is read back exactly
  return 0;
}
