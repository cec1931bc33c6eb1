/// `rescfg history`: the provisioned revisions, oldest first. Every stored
/// revision is checked against its recorded sha256 on the way.

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "commands.h"
#include "config_source.h"
#include "output_file.h"
#include "state/history_renames.h"
#include "state/state_store.h"
#include "util/json_writer.h"
#include "util/text_table.h"

namespace rescfg::cmd {

int RunHistory(const HistoryOptions& options) {
  const std::string dir = StateDirOrDefault(options.state_dir);
  auto store = OpenStateForReading(dir, options.lock_timeout_seconds);
  if (!store) return kExitUnusable;
  std::string error;
  if (!store->VerifyAll(&error)) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  std::string out;
  const std::vector<HistoryEntry>& history = store->history();
  const std::vector<std::vector<std::string>> renames = RenamesOfHistory(*store);
  if (options.format == "json") {
    JsonWriter json(2);
    json.BeginObject().Field("current", int64_t(store->revision())).Key("revisions").BeginArray();
    for (size_t i = 0; i < history.size(); ++i) WriteHistoryEntry(json, history[i], HistoryForm::kOutput, renames[i]);
    json.EndArray().EndObject();
    out = json.str() + "\n";
  } else if (store->history().empty()) {
    out = "Nothing has been provisioned in " + dir + " yet.\n";
  } else {
    TextTable table({"REVISION", "TIME", "USER", "CHANGES", "SHA256", "MESSAGE"});
    table.SetAlign(0, TextTable::Align::kRight);
    table.SetAlign(3, TextTable::Align::kRight);
    for (size_t n = 0; n < history.size(); ++n) {
      const HistoryEntry& e = history[n];
      std::string message = e.message;
      // Renames follow the message (rescfg(5), RENAMES).
      for (size_t i = 0; i < renames[n].size(); ++i) message += (i == 0 ? " [" : "; ") + renames[n][i];
      if (!renames[n].empty()) message += "]";
      for (char& c : message) if (c == '\n' || c == '\t' || c == '\r') c = ' ';
      table.AddRow({std::to_string(e.revision), e.time, e.user, std::to_string(e.changes),
                    e.sha256.substr(0, 12), message});
    }
    out = table.Render();
  }
  return WriteOutput(options.output, out) ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
