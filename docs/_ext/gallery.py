"""The reproduction pages' gallery (docs/explanation/papers/*.md): run one paper's figures
with ``pokerdyn.reproduce(quick=True)`` when the page is built and show each figure with its
summary, its numbers and the command that makes it alone."""
from __future__ import annotations

import tempfile
from pathlib import Path

from IPython.display import Image, Markdown, display

import pokerdyn as pd
from pokerdyn.figures.base import numbers_table
from pokerdyn.figures.registry import FIGURES, PAPERS


def show(paper: int, jobs: int = 2) -> None:
    """Figures of ``PAPERS[paper]``, in the registry's order."""
    _, prefixes = PAPERS[paper]
    names = [n for n in FIGURES if n.startswith(prefixes)]
    out = Path(tempfile.mkdtemp())
    figures = pd.reproduce(out, only=names, quick=True, jobs=jobs).to_dict()["figures"]
    for name in names:
        rec = figures[name]
        command = rec["command"].replace(str(out), "pokerdyn-out")
        display(Markdown(f"## {name.replace('_', ' ')}\n\n{rec.get('summary', '')}\n\n"
                         f"*{rec.get('source', '')}* -- `{command}`"))
        for f in rec["files"]:
            if f.endswith(".png"):
                display(Image(filename=str(out / f), width=720))
        if rec.get("numbers"):
            display(Markdown(numbers_table(rec["numbers"], limit=12)))
