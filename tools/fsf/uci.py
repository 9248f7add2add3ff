"""A UCI program kept running, for the scripts beside this one
(`uci_check.py`, `label.py`)."""

import subprocess


class Engine:
    def __init__(self, argv):
        self.p = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def lines_until(self, prefix):
        """The lines (stripped) up to and including the first starting with
        `prefix`; an `info string error` line fails."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.strip()
            if line.startswith("info string error"):
                raise RuntimeError("engine error: " + line)
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def until(self, prefix):
        """The first line starting with `prefix`."""
        return self.lines_until(prefix)[-1]

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)
