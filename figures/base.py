"""What a figure module returns, and small plotting helpers shared by figures."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from games.io.files import write_atomically  # noqa: E402


@dataclass(frozen=True)
class FigureResult:
    """Files written by a figure module, a one-paragraph description of what the figure
    shows, its key numbers (for the report) and the source (paper, figure number)."""

    name: str
    files: tuple[Path, ...]
    summary: str
    numbers: dict[str, Any] = field(default_factory=dict)
    source: str = ""


def new_figure(nrows: int = 1, ncols: int = 1, size: tuple[float, float] = (6.4, 4.8), **kw):
    """A matplotlib figure and its axes (Agg backend)."""
    return plt.subplots(nrows, ncols, figsize=size, **kw)


def save(fig, out_dir: Path, filename: str) -> Path:
    """Save ``fig`` as ``out_dir/filename`` (PNG unless the name says otherwise, 120 dpi),
    close it and return the path.  The file is written under a temporary name and renamed
    into place, so an interrupted or failed save never leaves a partial image."""
    path = Path(out_dir) / filename
    try:
        fig.tight_layout()
        write_atomically(path, lambda tmp: fig.savefig(
            tmp, dpi=120, format=path.suffix[1:].lower() or "png"))
    finally:
        plt.close(fig)
    return path


def finish(fig, out_dir: Path, name: str, summary: str, numbers: dict[str, Any] | None = None,
           source: str = "") -> FigureResult:
    """Save ``fig`` as ``out_dir/<name>.png`` and return its :class:`FigureResult`: the common
    ending of a one-file figure module."""
    return FigureResult(name, (save(fig, out_dir, f"{name}.png"),), summary, dict(numbers or {}),
                        source)
