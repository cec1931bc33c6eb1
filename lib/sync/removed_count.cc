#include "sync/removed_count.h"

#include <simdjson.h>

namespace rescfg::sync {

std::optional<int64_t> RemovedCount(std::string_view body) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  int64_t count = 0;
  if (parser.parse(body.data(), body.size()).get(root) != simdjson::SUCCESS ||
      root["data"]["removed"].get(count) != simdjson::SUCCESS || count < 0) {
    return std::nullopt;
  }
  return count;
}

}  // namespace rescfg::sync
