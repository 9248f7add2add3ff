"""A UCI program kept running, for the scripts beside this one
(`uci_check.py`, `label.py`, `eval_residuals.py`, `move_loss.py`, `suite.py`)."""

import subprocess


def last_score(lines):
    """The last `score` of a search's output lines, side to move's view:
    ("cp", centipawns) or ("mate", moves, negative when mated); None if
    there is none."""
    found = None
    for line in lines:
        words = line.split()
        if "score" in words:
            i = words.index("score")
            found = (words[i + 1], int(words[i + 2]))
    return found


class Engine:
    def __init__(self, argv):
        self.p = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    @classmethod
    def start(cls, argv, options=()):
        """A program started and made ready: `uci`, then each option as
        (name, value), then `isready`."""
        engine = cls(argv)
        engine.send("uci")
        engine.until("uciok")
        for name, value in options:
            engine.send(f"setoption name {name} value {value}")
        engine.ask([], "readyok")
        return engine

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

    def ask(self, lines, marker):
        """Sends `lines` and `isready`; the first reply line containing
        `marker` before `readyok` (None if none did)."""
        for line in lines + ["isready"]:
            self.send(line)
        found = [line for line in self.lines_until("readyok") if marker in line]
        return found[0] if found else None

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)
