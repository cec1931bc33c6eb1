#pragma once

/// Paths as a pasted output shows them (rescfg(1), plan): no runner's
/// absolute directory in a pull-request comment.

#include <string>

namespace rescfg::cmd {

/// `path` as a comment shows it: a relative path as given; an absolute path
/// inside the working directory relative to it; any other absolute path by
/// its last component only.
std::string PathForComment(const std::string& path);

}  // namespace rescfg::cmd
