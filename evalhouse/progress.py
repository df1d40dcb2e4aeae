"""Progress of long work: the library says what it is doing, the caller decides whether and how to show it.

    from evalhouse.progress import Progress

    def work(items, progress: Progress | None = None):
        progress = as_progress(progress)
        with progress.task("scoring", total=len(items), unit="sentences") as task:
            for item in items:
                ...
                task.advance(1)

:class:`Progress` shows nothing (the default of every library call). The ``evalhouse`` command passes a
progress that draws rich bars on stderr when stderr is a terminal (:func:`evalhouse.cli.common.progress`),
and nothing otherwise. The older callback form ``fn(path, i, n)`` (called before item i of n) is still
accepted wherever a progress is: :func:`as_progress` adapts it.
"""

from __future__ import annotations

from typing import Callable


class Task:
    """One piece of work with an optional total; ``advance`` moves it on, ``describe`` renames it."""

    def advance(self, n: float = 1, description: str | None = None) -> None:
        pass

    def describe(self, description: str) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> "Task":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Progress:
    """Shows nothing; subclasses draw."""

    def task(self, description: str, total: float | None = None, unit: str = "") -> Task:
        return Task()


class _CallbackTask(Task):
    def __init__(self, fn: Callable[[str, int, int], None], total: float | None):
        self.fn, self.total, self.done = fn, int(total or 0), 0

    def advance(self, n: float = 1, description: str | None = None) -> None:
        if description is not None:
            self.describe(description)
        self.done += int(n)

    def describe(self, description: str) -> None:
        self.fn(description, self.done, self.total)


class CallbackProgress(Progress):
    """The older callback ``fn(path, i, n)``: called with each item's description before the item."""

    def __init__(self, fn: Callable[[str, int, int], None]):
        self.fn = fn

    def task(self, description: str, total: float | None = None, unit: str = "") -> Task:
        return _CallbackTask(self.fn, total)


# what every ``progress`` parameter accepts: a Progress, or the older callback fn(path, i, n)
ProgressLike = Progress | Callable[[str, int, int], None]


def as_progress(progress: ProgressLike | None) -> Progress:
    """None -> a silent :class:`Progress`; a :class:`Progress` as it is; a callable -> :class:`CallbackProgress`."""
    if progress is None:
        return Progress()
    if isinstance(progress, Progress):
        return progress
    if callable(progress):
        return CallbackProgress(progress)
    raise TypeError(f"progress must be a Progress or a callable, not {type(progress).__name__}")
