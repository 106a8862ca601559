"""What every front-door call returns: a frozen result object with a short ``repr``,
``to_dict()`` (exactly what the command's ``--json`` prints), ``to_text()`` (what the
command prints without ``--json``), ``to_frame()`` where the result is a table (pandas,
imported when asked) and ``plot(ax=None)`` where a picture fits, and the seconds each stage
took (``timings``; not in ``to_dict``, which stays the same for the same seed).

A result class is a frozen dataclass that inherits :class:`Result` and defines
``to_dict``; the rest has defaults here.  :class:`Stages` times the stages of a call."""
from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import time
from typing import Any, Iterator

REPR_FIELD_CHARS = 80    # one field's value in a repr, at most
REPR_CHARS = 2000        # a whole repr, at most (a notebook cell stays readable)


def short(value: Any, limit: int = REPR_FIELD_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters, with the full length said when cut."""
    text = value if isinstance(value, str) and value.startswith("<") else repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:max(limit - 25, 10)]}...({len(text):,} chars)"


class Result:
    """Base of the front door's results (see the module docstring)."""

    timings: dict[str, float]

    # -- what a subclass defines -------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The result as the command's ``--json`` prints it (every key kept)."""
        raise NotImplementedError

    # -- defaults ----------------------------------------------------------------------
    def to_json(self, indent: int | None = 2) -> str:
        """``to_dict()`` as JSON text (``--json``'s output, without the final newline)."""
        return json.dumps(self.to_dict(), indent=indent)

    def to_text(self) -> str:
        """The command's text output (a subclass gives its own; this is the JSON)."""
        return self.to_json()

    def __str__(self) -> str:
        return self.to_text()

    def to_frame(self):
        """The result as a pandas DataFrame, where it is a table."""
        raise TypeError(f"{type(self).__name__} is not a table; use to_dict()")

    def plot(self, ax=None):
        """The result drawn on ``ax`` (a new figure when None); returns the Axes."""
        raise TypeError(f"{type(self).__name__} has no picture; use to_dict()")

    def _summary(self) -> dict[str, Any]:
        """The fields a repr shows (all dataclass fields but timings, by default)."""
        if dataclasses.is_dataclass(self):
            return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                    if f.repr and f.name != "timings"}
        return {}

    def __repr__(self) -> str:
        parts = [f"{k}={short(v)}" for k, v in self._summary().items()]
        t = getattr(self, "timings", None) or {}
        if t:
            parts.append("timings={" + ", ".join(f"{k}: {v:.3g} s" for k, v in t.items()) + "}")
        text = f"{type(self).__name__}({', '.join(parts)})"
        return text if len(text) <= REPR_CHARS else text[:REPR_CHARS - 4] + "...)"

    def _repr_html_(self) -> str:
        try:
            return self.to_frame()._repr_html_()
        except (TypeError, ImportError):
            import html
            return f"<pre>{html.escape(repr(self))}</pre>"


class Stages:
    """Seconds per named stage of one call, in order::

        stages = Stages()
        with stages("build"):
            game = ...
        stages.seconds  # {"build": 0.12}
    """

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t0


def finite_or_none(x: float) -> float | None:
    """A float for JSON: NaN and infinities become None (JSON has no such numbers)."""
    return float(x) if math.isfinite(x) else None
