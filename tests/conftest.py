"""Shared fixtures: compiled registry games (built once per session) and hypothesis
strategies for random behaviour profiles and exact rational parameter points."""
from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import pokerdyn

# The suite tests the installed package (issue 35): the source tree's pokerdyn/ holds only the
# API and command line (games/, solvers/, ... become pokerdyn.games, ... when installed), so a
# source tree that shadows the installed package is refused with the command that avoids it,
# and the subprocesses the tests start do not put their working folder first either.
_SOURCE = Path(__file__).resolve().parents[1] / "pokerdyn"
if Path(pokerdyn.__file__).resolve().parent == _SOURCE:
    try:
        import pokerdyn.games  # noqa: F401  (an editable install maps it to games/)
    except ModuleNotFoundError:
        raise pytest.UsageError(
            "the source tree's pokerdyn/ shadows the installed package: run the tests as the "
            "README says, python -P -m pytest (-P: the working folder not first on sys.path)")
os.environ["PYTHONSAFEPATH"] = "1"

from pokerdyn.games import compile_game, get_game  # noqa: E402

settings.register_profile("pokerdyn", deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pokerdyn")


_CONFIG: list = []


def pytest_configure(config):
    _CONFIG.append(config)


def pytest_runtest_logreport(report):
    """Name a failing test the moment it fails, with its last message line (issue 33): the
    summary comes only at the end, and a run cut short (an interrupt, CI's time limit) would
    otherwise never say which test failed.  Under xdist this runs in the controller, which
    receives every worker's reports as they finish."""
    reporter = _CONFIG[-1].pluginmanager.get_plugin("terminalreporter") if _CONFIG else None
    if report.failed and reporter is not None:
        crash = getattr(getattr(report.longrepr, "reprcrash", None), "message", "")
        first = " ".join(str(crash).split())[:200]
        reporter.write("\n")
        reporter.write_line(f"FAILED {report.nodeid} ({report.when}): {first}", red=True)

# Games used by property tests, with the pot for the one-third street family.
POTS = {"kuhn": None, "kuhn3": None, "kuhn3-third": 9, "kuhn3-third-full": 9, "skp": 9}

_COMPILED: dict = {}


def compiled(name: str, P: float | None = None):
    """Compiled registry game (cached across tests; compiled games are read-only)."""
    P = POTS.get(name) if P is None else P
    key = (name, P)
    if key not in _COMPILED:
        vals = {} if P is None else {"P": P}
        _COMPILED[key] = compile_game(get_game(name), vals)
    return _COMPILED[key]


@pytest.fixture(scope="session")
def compile_cached():
    """The :func:`compiled` helper as a fixture."""
    return compiled


def rationals(low: int = 0, high: int = 1, max_denominator: int = 97):
    """Exact rationals in [low, high]."""
    return st.fractions(min_value=Fraction(low), max_value=Fraction(high),
                        max_denominator=max_denominator)


@st.composite
def profiles(draw, cg):
    """A random behaviour profile of ``cg`` (some rows pure, some mixed)."""
    sigma = np.zeros(cg.legal.shape)
    for i, n in enumerate(cg.n_actions):
        w = np.array(draw(st.lists(st.floats(0, 1), min_size=int(n), max_size=int(n))))
        if w.sum() <= 1e-9:
            w = np.ones(int(n))
        sigma[i, :n] = w / w.sum()
    return sigma
