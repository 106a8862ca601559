"""Short reprs of the dynamics' results (issue 35, point 10): a notebook cell that shows a
:class:`~pokerdyn.dynamics.trajectory.Trajectory` or a simulation result prints one
readable line of at most :data:`REPR_CHARS` characters, arrays by their shape and range,
long values cut, instead of every sample (a Trajectory's default repr was 30,300
characters).  A dataclass gets it with ``__repr__ = summary_repr`` in its body (the
dataclass decorator keeps a ``__repr__`` the class defines)."""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

REPR_CHARS = 2000   # a whole repr, at most
FIELD_CHARS = 80    # one field's value, at most


def summarize(value: Any, limit: int = FIELD_CHARS) -> str:
    """One value in a few characters: an array as ``array(shape, min..max)``, a long
    sequence or mapping by its length, anything else by its repr cut to ``limit``."""
    if isinstance(value, np.ndarray):
        if value.size == 0:
            return f"array(shape={value.shape})"
        if value.size <= 6 and value.ndim <= 1:
            text = np.array2string(value, precision=4, separator=", ")
        elif value.dtype.kind in "iuf":
            finite = value[np.isfinite(value)]
            rng = f", {finite.min():.4g}..{finite.max():.4g}" if finite.size else ""
            text = f"array(shape={value.shape}{rng})"
        else:
            text = f"array(shape={value.shape}, dtype={value.dtype})"
    elif isinstance(value, (float, np.floating)):
        text = f"{value:.6g}"
    else:
        text = repr(value)
        if isinstance(value, (list, tuple, dict)) and len(text) > limit:
            text = _rounded(value)
            if len(text) > limit:
                text = f"<{type(value).__name__} of {len(value):,}>"
    if len(text) > limit:
        text = f"{text[:max(limit - 25, 10)]}...({len(text):,} chars)"
    return text


def _rounded(value: Any) -> str:
    """A dict, list or tuple with its floats to 4 significant digits."""
    def one(v: Any) -> str:
        return f"{v:.4g}" if isinstance(v, (float, np.floating)) else repr(v)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {one(v)}" for k, v in value.items()) + "}"
    inner = ", ".join(one(v) for v in value)
    return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"


def format_repr(name: str, items: dict[str, Any]) -> str:
    """``name(key=value, ...)`` with every value that is not already text
    :func:`summarize`-d; at most :data:`REPR_CHARS` characters."""
    parts = [f"{k}={v if isinstance(v, str) else summarize(v)}" for k, v in items.items()]
    text = f"{name}({', '.join(parts)})"
    return text if len(text) <= REPR_CHARS else text[:REPR_CHARS - 4] + "...)"


def summary_repr(obj: Any) -> str:
    """``Name(field=value, ...)`` of a dataclass with every value :func:`summarize`-d
    (fields declared ``repr=False`` left out); at most :data:`REPR_CHARS` characters."""
    return format_repr(type(obj).__name__, {f.name: summarize(getattr(obj, f.name))
                                            for f in dataclasses.fields(obj) if f.repr})


__all__ = ["REPR_CHARS", "format_repr", "summarize", "summary_repr"]
