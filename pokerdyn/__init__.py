"""pokerdyn: equilibria and repeated-play dynamics of small poker games.

``import pokerdyn as pd`` is the front door: one function per job, each returning a result
object with ``to_dict()`` (the command's ``--json``), ``to_text()``, and where they fit
``to_frame()`` and ``plot()``.  Bad input raises :class:`GameError` (a ``ValueError``) with
the one line the command line prints.  The names load their modules when first used, so
``import pokerdyn`` is quick (no numba, no game definitions).

The library below the front door: :mod:`pokerdyn.games` (games, the compiled core),
:mod:`pokerdyn.solvers` (exact and numeric solvers), :mod:`pokerdyn.dynamics` (adaptive
players) and :mod:`pokerdyn.figures` (the papers' figures).
"""
from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# front-door name -> module that defines it (loaded on first use)
_EXPORTS: dict[str, str] = {
    "GameError": "pokerdyn.games.errors",
    "game": "pokerdyn.api.inputs",
    "catalog": "pokerdyn.api.catalog",
    "reproduce": "pokerdyn.api.reproduce",
    **dict.fromkeys(["payoffs", "equilibria", "crosscheck", "continuation", "export"],
                    "pokerdyn.api.exact"),
    **dict.fromkeys(["solve", "compare", "collusion"], "pokerdyn.api.numeric"),
    **dict.fromkeys(["icm", "pushfold", "pushfold_chart"], "pokerdyn.api.tournament"),
    **dict.fromkeys(["qre", "qre_fit"], "pokerdyn.api.qre"),
    **dict.fromkeys(["ode", "lyapunov", "simulate", "estimators", "sweep"],
                    "pokerdyn.api.dynamics"),
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pokerdyn' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
