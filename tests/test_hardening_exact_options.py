"""Hardening of the numeric options of the game, exact, numeric and tournament commands
(issue 33, area C2): payoffs, solve, compare, collusion, export, equilibria, continuation,
crosscheck, icm, pushfold, and the exact pot parser they share.

Every bad value is one stderr line ``pokerdyn: error: ...`` naming the value or the option
and what is allowed, exit 2, nothing written (tests/hostile.run_bad).  The values here are
the ones tests/test_cli_bad_input.py does not generate: values that pass a plain range check
but would blow up the work (a pot 10**10**10 that sympy would evaluate for ever, a chart of
1e616 stacks, 1e15 sampled deals), values at the float limits (1e309, 1e300, 1e-308,
5000-digit integers).  Guards are shown to come before the work structurally: the builder
or solver is replaced by one that fails the test if called.
"""
from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError
from hostile import run_bad
from pokerdyn.cli import main
from pokerdyn.solvers.symbolic.model.pot_values import exact_pot

FUZZ = settings(max_examples=200, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


def _never(*_a, **_k):
    raise AssertionError("the work started before the bad value was refused")


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


# --- hostile values -------------------------------------------------------------------------

DIGITS_5000 = st.integers(4000, 6000).map(lambda n: "9" * n)
WORDS = st.sampled_from(["abc", "pot", "x", "e", "none", "1..2", "0x10", "--", "1,,", "2 3"])
NOT_FINITE = st.sampled_from(["nan", "NaN", "inf", "-inf", "+Infinity", "1e309", "-1e309"])
NEGATIVE = st.one_of(st.floats(max_value=-1e-308, allow_infinity=False).map(repr),
                     st.integers(max_value=-1).map(str))
ZERO = st.sampled_from(["0", "0.0", "-0.0", "0e5", "0*5", "1-1", "2-sqrt(4)"])

# pots: exact expressions are allowed, so also the ones too large (or small) to be a pot,
# and the ones too large to evaluate at all (10**10**10: sympy would compute it for ever)
POT_TOWER = st.tuples(st.integers(2, 10**6), st.integers(4, 10**6), st.integers(5, 10**6)).map(
    lambda t: f"{t[0]}**{t[1]}**{t[2]}")                              # >= 2**1024
POT_POWER = st.tuples(st.integers(11, 10**9), st.integers(100, 10**9), st.booleans()).map(
    lambda t: f"{t[0]}**{'-' if t[2] else ''}{t[1]}")                 # > 1e100 or < 1e-100
POT_LITERAL = st.tuples(st.integers(1, 9), st.integers(102, 10**30), st.booleans()).map(
    lambda t: f"{t[0]}e{'-' if t[2] else ''}{t[1]}")
POT_SCALE = st.sampled_from(["1e300", "1e101", "1e-308", "1e-400", "(5+sqrt(73))/2*1e200",
                             "(1+sqrt(2))**900", "E**1000", "2**sqrt(2)", "1/0", "0**-1",
                             "sqrt(-1)", "(-8)**(1/3)"])
BAD_POT = st.one_of(NOT_FINITE, WORDS, NEGATIVE, ZERO, DIGITS_5000, POT_TOWER, POT_POWER,
                    POT_LITERAL, POT_SCALE)

# positive reals (tolerances, seconds): the float limits and beyond
BAD_POSITIVE = st.one_of(NOT_FINITE, WORDS, NEGATIVE, st.sampled_from(["0", "-0.0", "0e5"]),
                         DIGITS_5000, st.integers(309, 10**6).map(lambda e: f"1e{e}"))
# one bad value of a comma-separated list ("1,," is the valid list 1)
ONE_BAD_POSITIVE = BAD_POSITIVE.filter(lambda t: "," not in t)
ONE_WORD = WORDS.filter(lambda t: "," not in t)
# integers >= 1 (iterations, starts): also fractions, and numbers past the float range
BAD_COUNT = st.one_of(BAD_POSITIVE, st.sampled_from(["1.5", "2.000001", "1e-308", "0.5"]))


# --- the exact pot parser -------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("10**10**10", ("10**10**10", "too large")),
    ("1e309", ("pot=1e309", "too large")),
    ("1e-400", ("pot=1e-400", "too small")),
    ("1e300", ("pot=1e300", "too large")),
    ("9" * 5000, ("5000 characters", "too long")),
    ("1e99999999", ("1e99999999", "too large")),
])
def test_pot_refusals_name_the_value_as_written(text, words, tmp_path):
    """Defect 3: `--pot 1e309` said `pot=inf is outside (0, inf)`; 10**10**10 hung; a
    5000-digit pot repeated itself (and could show Python's int digit-limit text)."""
    with pytest.raises(GameError) as exc:
        exact_pot(text)
    msg = str(exc.value)
    assert all(w in msg for w in words), msg
    assert "inf" not in msg.replace("Infinity", "") and "digit" not in msg.replace(
        "1000 digits", "") and len(msg) < 300, msg
    run_bad(["payoffs", "skp", f"--pot={text}"], (words[0],), tmp_path)


def test_huge_expression_refused_before_it_is_computed(monkeypatch):
    """The tower 2**2**2**2**2 (2**65536) is refused while its exponent is checked: the
    power itself is never formed (only the bounded 2**2, 2**4, 2**16 are)."""
    import sympy as sp

    import pokerdyn.solvers.symbolic.model.pot_values as pv

    calls = []
    real = pv._power

    def spy(b, x):
        calls.append(x)
        return real(b, x)

    monkeypatch.setattr(pv, "_power", spy)
    with pytest.raises(GameError, match="too large to evaluate"):
        pv._bounded(sp.parse_expr("2**2**2**2**2", evaluate=False), "2**2**2**2**2")
    assert calls == [2, 4, 16], calls   # 2**65536 was never computed


@pytest.mark.parametrize("text, value", [
    ("19/2", "19/2"), ("2.5", "5/2"), ("(5+sqrt(73))/2", "5/2 + sqrt(73)/2"),
    ("10**100", str(10**100)), ("1e-100", f"1/{10**100}"), ("2**-3", "1/8"),
    ("3*(2+1)", "9"), ("4**(1/2)", "2"), ("1e1000/1e999", "10"),
])
def test_pots_in_range_keep_their_exact_value(text, value):
    assert str(exact_pot(text)) == value


@FUZZ
@given(data=st.data(), pot=BAD_POT)
def test_fuzz_pot_options(data, pot, tmp_path):
    """>= 200 hostile pots, each through one of the commands that read an exact pot."""
    argv = data.draw(st.sampled_from([
        ["payoffs", "skp", "--pot={}"],
        ["payoffs", "kuhn3-third", "--pot={}", "--json"],
        ["equilibria", "skp", "--pot={}"],
        ["export", "kuhn3-third", "--pot={}", "--format=efg", "out.efg"],
        ["solve", "skp", "--pot={}", "--iterations=5"],
        ["compare", "skp", "--pot={}", "--iterations=5", "--seconds=0.01"],
        ["crosscheck", "skp", "--pots=3,{}", "--starts=1", "--iterations=5"],
        ["equilibria", "kuhn3", "--pots={}:5"],
    ]), label="command")
    run_bad([a.replace("{}", pot) for a in argv], (pot.strip()[:20], "pot"), tmp_path)


# --- a game without a pot given --pot (defect 4) ---------------------------------------------

@pytest.mark.parametrize("argv", [["payoffs", "kuhn", "--pot=9"],
                                  ["equilibria", "kuhn", "--pot=9"],
                                  ["equilibria", "mercer-smh", "--pot=9"],
                                  ["payoffs", "river", "--pot=nan"],
                                  ["export", "kuhn", "--pot=1e309", "out.efg"]])
def test_pot_for_a_game_without_pot_names_that_cause(argv, tmp_path, monkeypatch):
    """The cause is the game (it has no P), named before the value is read; mercer-smh is
    past the case search, whose support path used to run (minutes) ignoring --pot."""
    import pokerdyn.commands.exact.equilibrium_supports as sup

    monkeypatch.setattr(sup, "run_supports", _never)
    run_bad(argv, ("has no pot parameter P",), tmp_path)


# --- export to an unwritable path (defect 5) -------------------------------------------------

def test_failed_export_names_the_path_given_not_the_temporary(tmp_path, monkeypatch):
    """The check before the work passes (the folder is writable), then the write fails:
    the message names the path the user gave, never the hidden .NAME.tmp-PID file, and
    nothing is left behind."""
    import pathlib

    def refuse(self, *a, **k):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(pathlib.Path, "write_text", refuse)
    target = tmp_path / "kuhn.efg"
    code, out, err = _run(["export", "kuhn", str(target)])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"file='{target}' is not writable (Permission denied)" in err, err
    assert ".tmp-" not in err and list(tmp_path.iterdir()) == []


def test_write_atomically_names_the_target(tmp_path):
    from pokerdyn.games.io.files import write_atomically

    def fail(tmp):
        tmp.write_text("partial")
        raise OSError(28, "No space left on device", str(tmp))

    with pytest.raises(OSError) as exc:
        write_atomically(tmp_path / "a.json", fail)
    assert exc.value.filename == str(tmp_path / "a.json") and exc.value.errno == 28
    assert list(tmp_path.iterdir()) == []


# --- pushfold (defect 1) ---------------------------------------------------------------------

@pytest.mark.parametrize("argv, name", [
    (["--max-stack=1e308", "--step=1e-308"], "max-stack=1e308"),
    (["--max-stack=1e15", "--step=1"], "max-stack=1e15"),
    (["--max-stack=3", "--step=1e-300"], "2e+300 chart stacks"),
    (["--max-stack=2000", "--step=0.01"], "199,900 chart stacks"),
    (["--max-stack=1.0000001", "--step=1e-12"], "100,000 chart stacks"),
    (["--max-stack=1.000000000000001", "--step=1e-15"], "step=1e-15"),
])
def test_chart_refuses_before_any_lp(argv, name, tmp_path, monkeypatch):
    """The chart's stacks are counted (overflow-safe) before the grid is allocated or any
    LP is solved: 1e308/1e-308 was an OverflowError, 1e15/1 a 7 PiB allocation."""
    import pokerdyn.solvers.tournament as tour

    monkeypatch.setattr(tour, "hu_chart", _never)
    monkeypatch.setattr(np, "arange", _never)  # not even the grid
    run_bad(["pushfold", "--chart", *argv], (name,), tmp_path)


def test_chart_force_lifts_the_count_limit_not_the_ceiling(tmp_path):
    from pokerdyn.commands.tournament.pushfold import (MAX_CHART_STACKS,
                                                       MAX_CHART_STACKS_FORCED, chart_stacks)

    grid = chart_stacks(MAX_CHART_STACKS * 0.5 + 1, 0.25, 1.0, force=True)
    assert grid.size == 2 * MAX_CHART_STACKS and grid[0] == 1.25
    with pytest.raises(GameError, match=f"at most {MAX_CHART_STACKS:,}"):
        chart_stacks(MAX_CHART_STACKS * 0.5 + 1, 0.25, 1.0)
    with pytest.raises(GameError, match=f"at most {MAX_CHART_STACKS_FORCED:,}"):
        chart_stacks(10_000, 0.01, 1.0, force=True)


def test_chart_grid_is_the_full_grid_above_the_blinds():
    """The grid built from just below the blinds equals the former full grid's part above
    them (same k * step values)."""
    from pokerdyn.commands.tournament.pushfold import chart_stacks
    for top, step, floor in [(20, 0.1, 1.0), (10.05, 0.05, 1.25), (7.3, 0.3, 1.1),
                             (2000.5, 0.1, 2.0), (3, 0.7, 0.6)]:
        full = np.round(np.arange(1, int(np.floor(top / step + 1e-9)) + 1) * step, 10)
        assert np.array_equal(chart_stacks(top, step, floor), full[full > floor + 1e-12])


@FUZZ
@given(top=st.floats(1.5, 1e4), ratio=st.floats(20_001, 1e300), floor=st.sampled_from(
    [("0.5,1", "0"), ("0.5,1", "0.25"), ("1,2", "0")]))
def test_fuzz_chart_sizes(top, ratio, floor, tmp_path, monkeypatch):
    """Max-stack and step each in range, together more stacks than allowed."""
    import pokerdyn.solvers.tournament as tour

    blinds, ante = floor
    bb = float(blinds.split(",")[1]) + float(ante)
    step = (top - bb) / ratio
    if not step > 0 or top <= bb:
        step, top = 1e-300, bb + 1
    monkeypatch.setattr(tour, "hu_chart", _never)
    run_bad(["pushfold", "--chart", f"--max-stack={top!r}", f"--step={step!r}",
             f"--blinds={blinds}", f"--ante={ante}"], ("chart stacks", "step="), tmp_path)


@FUZZ
@given(data=st.data())
def test_fuzz_pushfold_options(data, tmp_path, monkeypatch):
    """Stacks, blinds, ante, samples, boards, seed: hostile values and values in range that
    would make an LP of 1e300 big blinds or allocate petabytes of sampled deals."""
    import pokerdyn.games.tournament.jamfold as jf

    monkeypatch.setattr(jf, "jamfold_game", _never)
    deep = st.one_of(st.floats(1e4 + 1, 1e300).map(lambda x: f"{x!r},{x!r}"),
                     st.just("1e300,1e300"))
    argv, bad, name = data.draw(st.sampled_from([
        (["--stacks={}"], st.one_of(ONE_BAD_POSITIVE, deep), "stack"),
        (["--stacks=10,10", "--blinds={}"],
         st.one_of(ONE_BAD_POSITIVE.map(lambda t: f"0.5,{t}"),
                   st.sampled_from(
             ["1e-300,1e-300", "1e-10,1e-10", "5,20", "1e300,1e300"])), "blinds"),
        (["--stacks=10,10", "--ante={}"], st.one_of(NOT_FINITE, WORDS, NEGATIVE,
                                                    st.sampled_from(["1e300", "9.5"])),
         "ante"),
        (["--stacks=10,10,10", "--samples={}"],
         st.one_of(BAD_COUNT, st.integers(2_200_000, 10**30).map(str)), "samples"),
        (["--stacks=10,10,10", "--boards={}"],
         st.one_of(BAD_COUNT, st.integers(100_001, 10**30).map(str)), "boards"),
        (["--stacks=10,10,10", "--seed={}"],
         st.one_of(NOT_FINITE, WORDS, DIGITS_5000, st.integers(2**32, 10**30).map(str)),
         "seed"),
    ]), label="option")
    value = data.draw(bad, label="value")
    run_bad(["pushfold", *[a.replace("{}", value) for a in argv]],
            (name, value[:20]), tmp_path)


# --- icm (defect 2) --------------------------------------------------------------------------

def test_icm_of_stacks_near_the_float_maximum_is_finite(tmp_path):
    """1e308 x 3 overflowed the total to inf and printed NaN equities with exit 0; ICM is
    scale invariant, so the equities are those of 1,1,1."""
    code, out, err = _run(["icm", "--stacks", "1e308,1e308,1e308", "--payouts", "0.5,0.3,0.2",
                           "--json"])
    d = json.loads(out)
    assert code == 0 and err == ""
    assert d["equity"] == pytest.approx([1 / 3] * 3) and d["chip_share"] == pytest.approx(
        [1 / 3] * 3)
    code, out, _ = _run(["icm", "--stacks", "1e308,1e308,1e308", "--payouts", "0.5,0.3,0.2"])
    assert code == 0 and "nan" not in out.lower() and "33.33%" in out


@FUZZ
@given(stacks=st.lists(st.floats(1e-3, 1e3), min_size=2, max_size=6),
       scale_exp=st.floats(-300, 305), pay=st.sampled_from([(1.0,), (0.5, 0.3), (0.6, 0.4)]))
def test_icm_is_scale_invariant_to_the_float_limits(stacks, scale_exp, pay):
    """Equity of c * stacks equals that of stacks for c from 1e-300 to 1e305 (Malmuth-
    Harville depends on stack ratios only), and is finite."""
    from pokerdyn.games.tournament import icm

    base = icm(stacks, pay[:len(stacks)])
    scaled = icm(np.asarray(stacks) * 10.0**scale_exp, pay[:len(stacks)])
    assert np.isfinite(scaled).all()
    assert scaled == pytest.approx(base, rel=1e-9, abs=1e-12)


@FUZZ
@given(data=st.data())
def test_fuzz_icm_options(data, tmp_path):
    argv, bad, name = data.draw(st.sampled_from([
        (["--stacks={}", "--payouts=0.5"],
         st.one_of(ONE_BAD_POSITIVE, ONE_BAD_POSITIVE.map(lambda t: f"10,{t},5")), "stacks"),
        (["--stacks=50,30,20", "--payouts={}"],
         st.one_of(NOT_FINITE, ONE_WORD, NEGATIVE, DIGITS_5000,
                   st.sampled_from(["0.7,0.7", "0.2,0.5", "1e-308,0.5", "1.5"])), "payouts"),
    ]), label="option")
    value = data.draw(bad, label="value")
    run_bad(["icm", *[a.replace("{}", value) for a in argv]], (name, value[:20]), tmp_path)


# --- the other numeric options ---------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_fuzz_numeric_options(data, tmp_path, monkeypatch):
    """Tolerances, time budgets, counts, seeds, pot ranges: hostile values, and values in
    range whose product is hours of work (crosscheck) or a range continuation cannot
    cover; each refused before the game is built or a solver runs."""
    import pokerdyn.api.exact as cc  # the crosscheck command's checks live there
    import pokerdyn.solvers.continuation.api as cont

    monkeypatch.setattr(cc, "game_and_values", _never)
    monkeypatch.setattr(cont, "continuation", _never)
    big = st.integers(10**9 // 7 + 1, 10**30)
    argv, bad, name = data.draw(st.sampled_from([
        (["solve", "kuhn", "--iterations=5", "--tol={}"], BAD_POSITIVE, "tol"),
        (["solve", "kuhn", "--iterations={}"], BAD_COUNT, "iterations"),
        (["compare", "kuhn", "--iterations=5", "--seconds={}"], BAD_POSITIVE, "seconds"),
        (["compare", "kuhn", "--iterations=5", "--tol={}"], BAD_POSITIVE, "tol"),
        (["collusion", "mercer-smh", "--kind=strong", "--tol={}"], BAD_POSITIVE, "tol"),
        (["collusion", "mercer-smh", "--kind=strong", "--iterations={}"], BAD_COUNT,
         "iterations"),
        (["crosscheck", "skp", "--tol={}"], BAD_POSITIVE, "tol"),
        (["crosscheck", "skp", "--starts={}"], BAD_COUNT, "starts"),
        (["crosscheck", "skp", "--iterations={}"], BAD_COUNT, "iterations"),
        (["crosscheck", "skp", "--seed={}"],
         st.one_of(NOT_FINITE, WORDS, NEGATIVE, DIGITS_5000,
                   st.integers(2**32, 10**30).map(str)), "seed"),
        (["crosscheck", "skp", "--pots=3", "--iterations=10000000", "--starts={}"],
         st.integers(101, 10_000).map(str), "FP iterations"),
        (["crosscheck", "skp", "--pots=3", "--starts=10000", "--iterations={}"],
         st.integers(100_001, 10_000_000).map(str), "FP iterations"),
        (["continuation", "skp", "--pots=2:{}"],
         st.one_of(BAD_POSITIVE, st.floats(1253, 1e100).map(repr),
                   st.sampled_from(["1e101", "1e300", "2"])), "pots"),
        (["continuation", "skp", "--pots={}:5"],
         st.one_of(BAD_POSITIVE, st.sampled_from(["1e-101", "1e-308", "5", "7"])), "pots"),
        (["continuation", "skp", "--pots=2:5", "--start={}"],
         st.one_of(BAD_POSITIVE, st.sampled_from(["1e300", "1e-308", "1.99", "5.01"])),
         "start"),
        (["continuation", "skp", "--pots=2:5", "--max-branches={}"],
         st.one_of(BAD_COUNT, big.map(str)), "max-branches"),
        (["equilibria", "kuhn3", "--seeds={}"], st.one_of(BAD_COUNT, big.map(str)), "seeds"),
        (["equilibria", "kuhn3", "--seed={}"],
         st.one_of(NOT_FINITE, WORDS, DIGITS_5000, st.integers(2**32, 10**30).map(str)),
         "seed"),
        (["equilibria", "kuhn3", "--workers={}"], st.one_of(BAD_COUNT, big.map(str)),
         "workers"),
    ]), label="option")
    value = data.draw(bad, label="value")
    run_bad([a.replace("{}", value) for a in argv], (name, value.strip()[:20]), tmp_path)
