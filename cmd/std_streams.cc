/// Safe standard descriptors: a process started with fd 0, 1 or 2 closed
/// would otherwise hand that number to the next file it opens, and then
/// read a configuration as standard input or write a report into the state
/// directory's lock file.

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include "commands.h"
#include "util/file_io.h"

namespace rescfg::cmd {

void MakeStandardStreamsSafe() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == 0) MarkStandardInputClosed();
    // open() returns the lowest free descriptor: this one.
    int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (opened != fd) {
      if (opened >= 0) ::close(opened);
      ::_exit(kExitUnusable);  // no descriptor to say why on
    }
  }
}

}  // namespace rescfg::cmd
