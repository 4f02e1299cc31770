"""A simulated board on a pty: tests/mp/repl_bridge.mjs (the MicroPython WebAssembly REPL)
behind a pseudo-terminal that mpremote opens like a USB serial port.

    python tests/mp/pty_board.py      # prints the port (/dev/pts/N); Ctrl-C to stop

    with PtyBoard() as port:           # in tests
        subprocess.run(["make", "deploy", "PORT=" + port, "RESET=soft"])
"""

import os
import pathlib
import subprocess
import threading
import tty

ROOT = pathlib.Path(__file__).resolve().parents[2]


class PtyBoard:
    """The bridge process and a pty; ``port`` is the pty's path while open."""

    def __enter__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # bytes pass untouched; the slave stays open so the pty lives
        self.port = os.ttyname(self.slave)
        self.node = subprocess.Popen(["node", str(ROOT / "tests" / "mp" / "repl_bridge.mjs")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        threading.Thread(target=self._pump, args=(self.master, self.node.stdin.fileno()), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.node.stdout.fileno(), self.master), daemon=True).start()
        return self.port

    @staticmethod
    def _pump(src, dst):
        try:
            while data := os.read(src, 4096):
                os.write(dst, data)
        except OSError:
            pass  # one side closed: the board is gone

    def __exit__(self, *_exc):
        self.node.kill()
        self.node.wait()
        os.close(self.slave)
        os.close(self.master)


if __name__ == "__main__":
    import time

    with PtyBoard() as port:
        print(port, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
