"""What a figure module returns, and small plotting helpers shared by figures.

A figure module's ``figure(seed=0, quick=False, ...)`` returns its matplotlib
:class:`Figure` (drawn, not saved: saving as PNG, SVG or PDF is the caller's choice), which
also carries what the report says of it (:func:`described`); its ``main(out_dir, ...)``
saves that figure (:func:`finish`) and returns the :class:`FigureResult`.

Importing this module leaves matplotlib's backend alone (a notebook keeps its inline
plots); ``pokerdyn reproduce`` selects Agg itself when it runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib.figure
import matplotlib.pyplot as plt

from pokerdyn.games.io.files import write_atomically


DPI = 120
# zlib level of the PNG files: level 1 writes files about 12% larger than the default level 6
# in about half its time (1.2-1.5 s instead of 1.9-2.2 s for reproduce's 37 images)
PNG_COMPRESSION = 1


@dataclass(frozen=True)
class FigureResult:
    """Files written by a figure module, a one-paragraph description of what the figure
    shows, its key numbers (for the report) and the source (paper, figure number)."""

    name: str
    files: tuple[Path, ...]
    summary: str
    numbers: dict[str, Any] = field(default_factory=dict)
    source: str = ""


class Figure(matplotlib.figure.Figure):
    """A matplotlib Figure that also carries what the report says of it: its file name
    ``name`` (without suffix), a one-paragraph ``summary``, its key ``numbers`` and its
    ``source`` (paper, figure number); see :func:`described`."""

    name: str = ""
    summary: str = ""
    numbers: dict[str, Any] = {}
    source: str = ""
    # True where the figure module placed its axes itself (a colour bar axes, a legend
    # below): :func:`save` then keeps that layout instead of running tight_layout
    fixed_layout: bool = False


def described(fig: Figure, name: str, summary: str, numbers: dict[str, Any] | None = None,
              source: str = "") -> Figure:
    """``fig`` with its report fields set (:class:`Figure`); returns it."""
    fig.name, fig.summary, fig.numbers, fig.source = name, summary, dict(numbers or {}), source
    return fig


def new_figure(nrows: int = 1, ncols: int = 1, size: tuple[float, float] = (6.4, 4.8), **kw):
    """A :class:`Figure` and its axes (pyplot's ``subplots``, on whatever backend is set).

    Titles of 2-d axes sit at the top of their axes (``axes.titley`` 1.0), where
    matplotlib's automatic placement puts them anyway when no tick labels or axis label are
    above the axes, as in every figure here; the automatic placement measures every axes'
    decorations on each layout and draw, about a seventh of the time of saving a figure.
    3-d axes keep it (their titles do move)."""
    three_d = (kw.get("subplot_kw") or {}).get("projection") == "3d"
    with plt.rc_context({} if three_d else {"axes.titley": 1.0}):
        return plt.subplots(nrows, ncols, figsize=size, FigureClass=Figure, **kw)


def value_text(v: Any) -> str:
    """A reported number as a reader writes it: 4 significant digits, lists joined by
    commas, a dict as ``key: value`` pairs; text as it is (no Python reprs in a report)."""
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, (list, tuple)):
        return ", ".join(value_text(x) for x in v)
    if isinstance(v, dict):
        return "; ".join(f"{k}: {value_text(x)}" for k, x in v.items())
    if isinstance(v, int):
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def numbers_table(numbers: dict[str, Any], limit: int | None = None) -> str:
    """A figure's key numbers as a Markdown table (the report's and the documentation's):
    one row per quantity, values by :func:`value_text`, the first ``limit`` rows."""
    rows = [f"| {k} | {value_text(v).replace('|', '/')} |"
            for k, v in list(numbers.items())[:limit]]
    return "\n".join(["| quantity | value |", "|---|---|", *rows])


def family_colours(n: int) -> list:
    """One colour per family (or any ``n`` items a legend must tell apart): matplotlib's
    ten distinct colours while they suffice, else ``n`` colours spread over a perceptually
    ordered map, so that no colour repeats."""
    if n <= 10:
        return [f"C{i}" for i in range(n)]
    cmap = matplotlib.colormaps["turbo"]
    return [cmap(0.05 + 0.9 * i / (n - 1)) for i in range(n)]


def save(fig, out_dir: Path, filename: str) -> Path:
    """Save ``fig`` as ``out_dir/filename`` (PNG unless the name says otherwise, 120 dpi),
    close it and return the path.  The file is written under a temporary name and renamed
    into place, so an interrupted or failed save never leaves a partial image."""
    path = Path(out_dir) / filename
    fmt = path.suffix[1:].lower() or "png"
    try:
        # the layout is measured at the dpi the file is drawn at, so the text extents that
        # tight_layout computes are the ones the draw reuses (matplotlib caches them per dpi)
        fig.set_dpi(DPI)
        if not getattr(fig, "fixed_layout", False):
            fig.tight_layout()
        write_atomically(path, lambda tmp: fig.savefig(
            tmp, dpi=DPI, format=fmt, **({"pil_kwargs": {"compress_level": PNG_COMPRESSION}}
                                         if fmt == "png" else {})))
    finally:
        plt.close(fig)
    return path


def finish(fig, out_dir: Path, name: str | None = None, summary: str | None = None,
           numbers: dict[str, Any] | None = None, source: str | None = None,
           extra: tuple[Path, ...] = (), filename: str | None = None) -> FigureResult:
    """Save ``fig`` as ``out_dir/<name>.png`` (or ``out_dir/<filename>``) and return its
    :class:`FigureResult` (the files: the image, then ``extra``): the common ending of a
    figure module's ``main``.  The fields not given are those ``fig`` carries
    (:func:`described`)."""
    name = getattr(fig, "name", "") if name is None else name
    summary = getattr(fig, "summary", "") if summary is None else summary
    numbers = getattr(fig, "numbers", {}) if numbers is None else numbers
    source = getattr(fig, "source", "") if source is None else source
    return FigureResult(name, (save(fig, out_dir, filename or f"{name}.png"), *extra), summary,
                        dict(numbers or {}), source)
