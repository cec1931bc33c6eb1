#include "sync/file_trust.h"

#include <sys/stat.h>
#include <unistd.h>

namespace rescfg::sync {

std::string UntrustedFileReason(const std::string& path, const std::string& shown, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return shown + ": the " + what + " is missing or not a regular file";
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return shown + ": the " + what + " may be changed by group or others; make it writable by its owner only "
           "(chmod go-w)";
  }
  if (st.st_uid != ::geteuid() && st.st_uid != 0) {
    return shown + ": the " + what + " belongs to another user (uid " + std::to_string(st.st_uid) +
           "); it must belong to the user running the sync, or to root";
  }
  return "";
}

}  // namespace rescfg::sync
