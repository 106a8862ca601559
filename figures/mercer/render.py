"""Shared by the Mercer table modules: the printed cells beside ours (markdown), the largest
deviation per table, and the cache of solved profiles.

A *column* of ours is a name and, per cell ``(row, column)``, either a number (percent) or a
range ``(low, high)`` (an LP optimal face, or the spread over seeded runs); the deviation of
a printed cell from a range is its distance to the range (0 inside it).

Profiles: ``profile(name, compute, out_dir, heavy)`` returns the cached profile
``out_dir/mercer_cache/<name>.npy`` or the committed one in ``figures/mercer/data/profiles/``;
without either, it computes and saves it only when ``heavy`` (else None: a quick run shows
"n/a" there and says to run ``--heavy``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import numpy as np

from pokerdyn.figures.mercer.paper import PaperTable

# committed results, shipped with the package (a plain `pip install .` run reads them too)
DATA = Path(__file__).resolve().parent / "data"
COMMITTED = DATA / "profiles"
PAPER_PAYOFF_ERROR = 0.00577   # the paper's stated error of its payoffs (Table 7)
FP_FREQ_ERROR = 3.0            # "a few percentage points" for frequencies found by FP


def profile(name: str, compute: Callable[[], np.ndarray], out_dir: Path,
            heavy: bool) -> np.ndarray | None:
    """The cached profile ``name``, else ``compute()`` (saved) when ``heavy``, else None."""
    mine = Path(out_dir) / "mercer_cache" / f"{name}.npy"
    for p in (mine, COMMITTED / f"{name}.npy"):
        if p.exists():
            return np.load(p)
    if not heavy:
        return None
    s = np.asarray(compute(), dtype=np.float64)
    mine.parent.mkdir(parents=True, exist_ok=True)
    np.save(mine, s)
    return s


def _fmt(v) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, tuple):
        lo, hi = v
        return f"{lo:.1f}" if hi - lo < 0.05 else f"[{lo:.1f}, {hi:.1f}]"
    return f"{v:.1f}"


def deviation(printed: float, v) -> float | None:
    if v is None:
        return None
    if isinstance(v, tuple):
        return max(v[0] - printed, printed - v[1], 0.0)
    return abs(printed - v)


def side_by_side(t: PaperTable, columns: dict[str, dict]) -> tuple[str, dict[str, float]]:
    """Markdown of table ``t``: per cell "printed / ours (one per column)"; and the largest
    deviation of a printed cell from each column (absent where the column has no values)."""
    columns = columns or {"ours (none cached: run --heavy)": {}}
    names = list(columns)
    lines = [f"**Table {t.name}** ({t.caption}; `{t.game}`): printed / "
             + " / ".join(names) + ", percent of betting", "",
             "| row | " + " | ".join(t.columns) + " |", "|---|" + "---|" * len(t.columns)]
    dev: dict[str, float] = {}
    for r in t.rows:
        cells = []
        for c, printed in zip(t.columns, t.values[r]):
            vals = [columns[n].get((r, c)) for n in names]
            cells.append(f"{printed:g} / " + " / ".join(_fmt(v) for v in vals))
            for n, v in zip(names, vals):
                d = deviation(printed, v)
                if d is not None:
                    dev[n] = max(dev.get(n, 0.0), d)
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    lines += ["", "Largest deviation of a printed cell: " + (", ".join(
        f"from {n} {d:.2f} points" for n, d in dev.items()) or "n/a") + ".", ""]
    return "\n".join(lines), dev


def spread(freqs: list[dict]) -> dict:
    """Cell -> (min, max) over several runs' frequency dicts."""
    if not freqs:
        return {}
    return {k: (min(f[k] for f in freqs), max(f[k] for f in freqs)) for k in freqs[0]}


def heavy_results(committed: Path, out_dir: Path, heavy: bool,
                  compute: Callable[[Path], object]) -> tuple[Path, dict]:
    """The JSON results of a heavy run: the committed file, or with ``heavy``
    ``compute(out_dir/<committed name>)`` first (a resumable library run that writes its
    JSON there: ``colluders.run``, ``strong.run``); {} when absent."""
    path = committed
    if heavy:
        path = Path(out_dir) / committed.name
        path.parent.mkdir(parents=True, exist_ok=True)
        compute(path)
    return path, (json.loads(path.read_text()) if path.exists() else {})


def write_md(out_dir: Path, name: str, text: str) -> Path:
    path = Path(out_dir) / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
