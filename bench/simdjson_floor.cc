/// The floor for reading a JSON Lines jobs file: read it, parse every line
/// with simdjson's on-demand parser and touch its id. Nothing is kept.
///
///   rescfg-simdjson-floor FILE.jsonl

#include <simdjson.h>

#include <cstdio>
#include <string_view>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rescfg-simdjson-floor FILE.jsonl\n");
    return 2;
  }
  simdjson::padded_string text;
  if (simdjson::padded_string::load(argv[1]).get(text)) {
    std::fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  simdjson::ondemand::parser parser;
  std::string_view all(text);
  size_t lines = 0, id_bytes = 0, errors = 0;
  for (size_t start = 0; start < all.size();) {
    size_t end = all.find('\n', start);
    if (end == std::string_view::npos) end = all.size();
    if (end > start) {
      // The rest of the file (and its padding) follows the line: no copy needed.
      simdjson::ondemand::document doc;
      std::string_view id;
      if (parser.iterate(all.data() + start, end - start, text.size() + simdjson::SIMDJSON_PADDING - start).get(doc) ||
          doc["id"].get_string().get(id)) {
        ++errors;
      } else {
        id_bytes += id.size();
      }
      ++lines;
    }
    start = end + 1;
  }
  std::printf("%zu lines, %zu id bytes, %zu errors\n", lines, id_bytes, errors);
  return 0;
}
