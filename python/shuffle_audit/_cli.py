"""The wheel's ``shuffle-audit`` command: the tool's own command line, run in-process by the
native module (it is the same code as the ``shuffle-audit`` binary that cargo builds)."""

import signal
import sys

from . import _native


def main() -> None:
    # The command line handles SIGINT, SIGTERM and SIGHUP itself (temporaries removed, exit
    # 128 + signal); Python's own SIGINT handler would only set a flag nobody reads while
    # native code runs. Closed pipes are errors it reports, as the binary does.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_native.command_line(sys.argv))


if __name__ == "__main__":
    main()
