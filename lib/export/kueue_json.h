#pragma once
/// The Kueue objects as JSON, for `rescfg export kueue --format json`: the
/// same objects as the YAML documents, as data for jq
/// (`jq '.objects[] | select(.kind == "ClusterQueue") | .metadata.name'`).

#include "export/kueue_objects.h"
#include "util/json_writer.h"

namespace rescfg {

/// Writes the objects as one JSON array, in the order of the YAML documents.
void WriteKueueJson(const KueueObjects& objects, JsonWriter& json);

}  // namespace rescfg
