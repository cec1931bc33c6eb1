#pragma once
/// Text inside a double-quoted Graphviz string (rescfg-graph(1)), such as
/// an edge's tooltip: Graphviz reads '\' there as an escape ("\"" is a quote,
/// "\N" the node's name), so a name that ends in a backslash would swallow
/// the closing quote and dot would refuse the file.

#include <string>
#include <string_view>

namespace rescfg {

/// `text` for between the quotes of a Graphviz string: '\' doubled, and
/// '&', '<', '>' and '"' as entities (Graphviz reads entities in strings too).
std::string DotQuotedText(std::string_view text);

}  // namespace rescfg
