"""Is long work still running? A status line on a terminal, silence everywhere else.

- :func:`working`: a context manager for one long call (a bootstrap of many resamples): after
  ``delay`` seconds it shows ``message ... 12 s`` on stderr, updated until the call returns,
  then erases the line.
- :func:`counting`: wraps a loop of known length (models times folds) and shows ``i/total``.

Both write only when ``verbose`` is true and the stream is a terminal (``isatty()``), so pipes,
log files, tests and ``verbose=0`` see nothing: the printed results stay the same wherever
they are sent.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

__all__ = ["working", "counting", "shows_progress"]


def shows_progress(stream=None, verbose=True) -> bool:
    """True when progress should be drawn on ``stream`` (default stderr)."""
    stream = sys.stderr if stream is None else stream
    if not verbose or stream is None:
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _erase(stream, width) -> None:
    stream.write("\r" + " " * width + "\r")
    stream.flush()


@contextmanager
def working(message: str, *, verbose=True, stream=None, delay: float = 2.0,
            interval: float = 0.5):
    """Show ``message ... <seconds> s`` while the block runs longer than ``delay`` seconds."""
    stream = sys.stderr if stream is None else stream
    if not shows_progress(stream, verbose):
        yield
        return
    stop = threading.Event()
    start = time.monotonic()

    def draw():
        if stop.wait(delay):
            return  # finished before anyone would wait for it
        width = 0
        while True:
            text = f"{message} ... {time.monotonic() - start:.0f} s"
            width = max(width, len(text))
            stream.write("\r" + text)
            stream.flush()
            if stop.wait(interval):
                break
        _erase(stream, width)

    thread = threading.Thread(target=draw, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def counting(items, total: int, message: str, *, verbose=True, stream=None):
    """Yield ``items``, showing ``message i/total`` on a terminal; erase the line at the end."""
    stream = sys.stderr if stream is None else stream
    if not shows_progress(stream, verbose):
        yield from items
        return
    width = 0
    try:
        for i, item in enumerate(items):
            text = f"{message} {i + 1}/{total}"
            width = max(width, len(text))
            stream.write("\r" + text)
            stream.flush()
            yield item
    finally:
        _erase(stream, width)
