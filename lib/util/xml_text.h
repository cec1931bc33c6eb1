#pragma once
/// Text for XML and SVG (and Graphviz's HTML-like strings): the four
/// characters that would end an attribute or start markup become entities.

#include <string>
#include <string_view>

namespace rescfg {

/// `text` with & < > " as &amp; &lt; &gt; &quot;.
std::string XmlText(std::string_view text);

}  // namespace rescfg
