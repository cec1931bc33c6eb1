#pragma once
/// A fast event producer for the plain YAML that jobs files are made of.
///
/// yaml-cpp's scanner reads about 3.5 MB/s, which made reading a large YAML
/// jobs file the slowest part of `rescfg schedule`. Generated and ordinary
/// hand-written job lists use a small part of YAML: block mappings and
/// sequences, one-line plain and quoted scalars, comments and one-line flow
/// mappings and sequences. This scanner reads that subset straight from the
/// text and emits exactly the events yaml-cpp 0.7 would (same types, marks,
/// scalar texts and null decisions). It gives up on the first thing outside
/// the subset, or anything that might be an error, and the caller then reads
/// the whole file with yaml-cpp instead: the result is always yaml-cpp's.

#include <string_view>

#include "util/yaml_event.h"

namespace rescfg {

/// Emits the events of `text` (one document) into `sink`. Returns false when
/// the text is not entirely within the subset: the events emitted so far
/// are then meaningless and the caller must discard what it built from them.
/// `text` must be valid UTF-8 without NUL bytes.
bool ScanPlainYaml(std::string_view text, YamlEventSink* sink);

}  // namespace rescfg
