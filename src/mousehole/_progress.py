"""The progress display of a long run on stderr, written once: ``mousehole.arena.play(...,
progress=True)`` and the CLI's ``simulate`` and ``arena`` show it (a ``progress(games_done,
n_games)`` callback used as a context manager). rich is imported only when stderr is a
terminal, and only if installed.
"""

from __future__ import annotations

import sys
import time
from typing import Any

__all__ = ["Progress", "games_text"]


def games_text(n: int) -> str:
    """``"1 game"``, ``"12,345 games"``."""
    return f"{n:,} game" if n == 1 else f"{n:,} games"


class Progress:
    """Progress on stderr: a rich bar (rich installed, stderr a terminal), a plain line
    rewritten in place (terminal, no rich), or otherwise a line when the run starts and one
    every ``every`` seconds while it goes on. ``done`` is the last count reported."""

    def __init__(self, label: str, n: int, *, every: float) -> None:
        self.label, self.n, self.every = label, n, every
        self.done = 0
        self.start = time.monotonic()
        self.last_log = self.start
        self.stream = sys.stderr
        tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.rich: Any = None
        self.task: Any = None
        self.inline = False
        if tty:
            try:
                from rich import progress as rp
                from rich.console import Console
            except ImportError:
                self.inline = True
            else:
                self.rich = rp.Progress(
                    rp.TextColumn("{task.description}"),
                    rp.BarColumn(bar_width=20),
                    rp.TaskProgressColumn(),
                    rp.MofNCompleteColumn(),
                    rp.TextColumn("games, eta"),
                    rp.TimeRemainingColumn(),
                    console=Console(file=self.stream),
                    transient=True,
                )
        else:
            self._line(f"{label}: {games_text(n)} started")

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def __enter__(self) -> "Progress":
        if self.rich is not None:
            self.rich.start()
            self.task = self.rich.add_task(self.label, total=self.n)
        return self

    def __call__(self, done: int, n: int) -> None:
        """The ``progress`` callback of ``simulate`` and ``arena.play``."""
        self.done = done
        now = time.monotonic()
        if self.rich is not None:
            self.rich.update(self.task, completed=done)
        elif self.inline:
            rate = done / (now - self.start) if now > self.start else 0.0
            pct = 100.0 * done / n if n else 100.0
            self.stream.write(f"\r{self.label}: {done:,}/{n:,} games ({pct:.0f}%), {rate:,.0f} games/s\x1b[K")
            self.stream.flush()
        elif now - self.last_log >= self.every and done < n:
            self.last_log = now
            self._line(f"{self.label}: {done:,}/{n:,} games ({100.0 * done / n:.0f}%)")

    def __exit__(self, *exc: Any) -> None:
        if self.rich is not None:
            self.rich.stop()
        elif self.inline:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
