"""Conformance with Gambit's game collection (issue 34): every ``.efg`` file of Gambit's
repository read by pokerdyn's reader and by pygambit, and solved by both.

    python benchmarks/conformance_gambit.py [--repo GIT_DIR] [--out FILE.md]
        [--timeout 60] [--jobs 1] [--only SUBSTRING ...] [--nfg] [--json FILE]

``--repo`` is a (bare) clone of github.com/gambitproject/gambit; files are read with
``git show HEAD:path`` (default: $GAMBIT_REPO, else the session mirror).  Each file runs in a
worker process with a per-file time limit (``--timeout``): a hang or a crash of the worker
marks that file's remaining checks ``timeout`` / ``crash`` and the table goes on.

Per file (each check one cell; ``ok``/``agree``, ``n/a (why)``, ``refused: <our one-line
error>``, ``crash: <exception> at <file:line>``, ``differs: <both values>``, ``timeout``):

- **read**: :func:`games.io.efg.game_from_efg` against ``pygambit.read_efg``;
- **structure**: players; both trees walked in parallel: node kinds, the acting player, the
  information-set partition (a bijection between our sets and Gambit's (player, set) that
  holds at every node: two sets that share a label must stay two), action counts, chance
  probabilities and the terminal payoffs (Gambit's outcomes accumulated along the path)
  compared exactly (rationals);
- **uniform**: the max regret of the uniform behaviour profile, ours
  (:func:`solvers.evaluation.regrets`) against pygambit's ``max_regret`` (relative 1e-9);
- **lp** (two players): our LP (``pokerdyn solve --method lp``) on constant-sum games,
  exact payoffs against pygambit's ``lp_solve(rational=True)`` (its ``lcp_solve`` where
  Gambit's LP profile fails Gambit's own regret check: nim, nim7, e10a); on general-sum
  games the LP must refuse and name the LCP;
- **lcp** (two players): our LCP (``--method lcp``), exact payoffs against pygambit's
  ``lcp_solve(rational=True)``;
- **eq-check**: the LP and LCP profiles loaded into pygambit's ``MixedBehaviorProfile``
  (rational where our values are exact) and checked with pygambit's ``max_regret() == 0``
  (floats: <= 1e-9 relative);
- **enum**: our exact enumeration (``pokerdyn equilibria FILE``): its families (a sample
  point of each checked by pygambit as above), or why not;
- **enummixed** (two players): every extreme equilibrium of pygambit's
  ``enummixed_solve(rational=True)`` lies, exactly, in one of the families of our exact
  enumeration (``pokerdyn equilibria``; behaviour at sets their owner's own plan does not
  reach is left free);
- **enumpoly**: every equilibrium of pygambit's ``enumpoly_solve`` within 1e-6 (max norm,
  over the sets their owner reaches) of one of our families.

The test suite runs the same checks (``check_game``) on the catalog games of pygambit's
wheel: tests/test_conformance_gambit.py.
"""
from __future__ import annotations

import argparse
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator

from pokerdyn.benchmarking import Measurement, script_main
from pokerdyn.games.io.gambit_compare import (Differs, frac, gambit_read, match_trees,
                                              nfg_disagreements, tuple_text)

DEFAULT_REPO = os.environ.get("GAMBIT_REPO", "/work/.mirror/gambitproject+gambit/repo")
CHECKS = ("read", "players", "structure", "uniform", "lp", "lcp", "eq-check", "enum",
          "enummixed", "enumpoly")
REL_TOL = 1e-9        # float comparisons, relative to the largest payoff (at least 1)
ENUMPOLY_TOL = 1e-6   # enumpoly's equilibria are floats (refined to about 1e-10)
MAX_ENUMMIXED_STRATEGIES = 400   # per player, pygambit's reduced strategic form
# pygambit's max_regret ran minutes on cs.efg (4 players, 1.3e8 reduced strategy profiles)
# and ttt.efg (1.1e10): the checks through it are n/a past this many profiles
MAX_GAMBIT_PROFILES = 10**7


class Skip(Exception):
    """A check that does not apply to this file (the message says why)."""


# ----------------------------------------------------------------------------- helpers

def where(exc: BaseException) -> str:
    """``Type: message at file:line`` of the innermost frame in this repository."""
    tb = traceback.extract_tb(exc.__traceback__)
    root = str(Path(__file__).resolve().parents[1])
    mine = [f for f in tb if f.filename.startswith(root)] or tb
    at = f" at {os.path.relpath(mine[-1].filename, root)}:{mine[-1].lineno}" if mine else ""
    msg = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {msg}{at}"


def attempt(fn: Callable[[], str]) -> str:
    """Run one check: its text, or ``n/a (...)``, ``refused: ...``, ``differs: ...``,
    ``crash: ...``.  A GameError is our library refusing the file (one line); anything
    else from our code is a crash."""
    from pokerdyn.games import GameError

    try:
        return fn()
    except Skip as exc:
        return f"n/a ({exc})"
    except Differs as exc:
        return f"differs: {exc}"
    except GameError as exc:
        return "refused: " + " ".join(str(exc).split())[:300]
    except Exception as exc:  # noqa: BLE001 - every other failure is a finding
        return "crash: " + where(exc)


# ----------------------------------------------------------------------------- profiles

def load_profile(g, infomap: dict, sigma, rational: bool):
    """Our behaviour profile (rows per our set, exact Fractions or floats) as pygambit's
    MixedBehaviorProfile."""
    prof = g.mixed_behavior_profile(rational=rational)
    for I, ginf in infomap.items():
        for a, act in enumerate(ginf.actions):
            prof[act] = Fraction(sigma[I][a]) if rational else float(sigma[I][a])
    return prof


def payoff_scale(g) -> float:
    return max(1.0, abs(float(g.max_payoff)), abs(float(g.min_payoff)))


def gambit_check(g, infomap: dict, sigma, exact: bool) -> str:
    """``""`` when pygambit's regret check passes, else why not."""
    prof = load_profile(g, infomap, sigma, exact)
    r = prof.max_regret()
    if exact:
        return "" if Fraction(r) == 0 else f"pygambit max_regret {r}"
    return "" if float(r) <= REL_TOL * payoff_scale(g) else f"pygambit max_regret {float(r):.3g}"


def is_profile(g, prof) -> bool:
    """Does each information set's row of pygambit's profile sum to 1?  (Its ``lp_solve``
    returns rows of zeros on nim, nim7 and e10a, which its ``max_regret`` passes.)"""
    return all(sum((Fraction(prof[a]) for a in inf.actions), Fraction(0)) == 1
               for p in g.players for inf in p.infosets)


def strategy_profiles(game, cg) -> int:
    """The number of reduced pure-strategy profiles (games.normal_form.plan_count)."""
    import math

    import numpy as np

    from pokerdyn.games.normal_form import plan_count, sequences
    sq, n_act = sequences(game), cg.n_actions.astype(np.int64)
    return math.prod(plan_count(sq, p, n_act) for p in range(game.n_players))


def exact_behaviour(cg, plans) -> list[list[Fraction]]:
    """Behaviour of exact realization plans (sets their owner does not reach: uniform)."""
    from pokerdyn.solvers.sequence.form import sequence_form

    sf = sequence_form(cg)
    out = []
    for I in range(cg.n_infosets):
        x = plans[int(cg.infoset_player[I])]
        n = int(cg.n_actions[I])
        top = Fraction(x[int(sf.parent_seq[I])])
        out.append([Fraction(x[int(sf.seq[I, a])]) / top if top else Fraction(1, n)
                    for a in range(n)])
    return out


def own_reached(game, sigma) -> list[bool]:
    """Per our set: reached with positive probability by its owner's own moves under
    ``sigma`` (rows per set)."""
    import numpy as np

    from pokerdyn.games.tree import DECISION

    kind, parent, edge, infoset = (np.asarray(a) for a in
                                   (game.kind, game.parent, game.edge, game.infoset))
    n = game.n_players
    reach = [None] * len(kind)
    reach[0] = (1,) * n
    seen = [False] * game.n_infosets
    for node in range(1, len(kind)):  # parents come before children
        par = int(parent[node])
        r = reach[par]
        if kind[par] == DECISION:
            I = int(infoset[par])
            p = game.infosets[I].player
            r = r[:p] + (r[p] * sigma[I][int(edge[node])],) + r[p + 1:]
        reach[node] = r
    for node in range(len(kind)):
        if kind[node] == DECISION:
            I = int(infoset[node])
            if reach[node][game.infosets[I].player] > 0:
                seen[I] = True
    return seen


def gambit_behaviour(game, infomap: dict, prof, as_float: bool = False) -> list[list]:
    return [[(float if as_float else frac)(prof[act]) for act in infomap[I].actions]
            for I in range(game.n_infosets)]


def named_values(game, sigma, reached) -> dict[str, Any]:
    """Our named parameters (the probability of each action but the first) at the sets
    their owner reaches."""
    out = {}
    for par in game.named:
        I = game.infoset_index(par.infoset)
        if reached[I]:
            out[par.name] = sigma[I][game.infosets[I].actions.index(par.action)]
    return out


def in_family(sol, point: dict[str, Fraction]) -> bool:
    """Is the exact point (values of some named parameters) in the family, for some value
    of its free parameters within its constraints (strict ones strict)?  A point at a pole
    of the family's formulas is not
    (:func:`solvers.symbolic.families.membership.contains_point`)."""
    from pokerdyn.solvers.symbolic.families.membership import contains_point

    return contains_point(sol, point)


def near_family(sol, point: dict[str, float]) -> float:
    """Max-norm distance from a float point (some named parameters) to the family
    (solvers.methods.crosscheck.distance_to_family on those parameters; its starting point is
    the whole family's sample)."""
    from dataclasses import fields

    from pokerdyn.solvers.methods.crosscheck import distance_to_family
    from pokerdyn.solvers.symbolic.axis.piecewise import Solution

    kept = tuple((n, v) for n, v in sol.strategy if n in point)
    if not kept:
        return 0.0
    part = _part_class()(**{f.name: getattr(sol, f.name) for f in fields(Solution)}, whole=sol)
    return distance_to_family(replace(part, strategy=kept), point)


def _part_class():
    from dataclasses import dataclass

    from pokerdyn.solvers.symbolic.axis.piecewise import Solution

    @dataclass(frozen=True)
    class Part(Solution):
        """A family restricted to some of its named parameters; its sample is the
        whole family's."""
        whole: Any = None

        def sample(self, *args, **kw):
            return self.whole.sample(*args, **kw)

    return Part


# ----------------------------------------------------------------------------- checks

def check_game(text: str, name: str, path: str | None = None, enumerate_: bool = True,
               enumpoly: bool = True) -> Iterator[tuple[str, str]]:
    """The checks of one .efg file, as ``(check, result)`` pairs in CHECKS order (yielded
    as each finishes, so that a time limit keeps the finished ones).  ``path``: a file
    with this text for the enumeration (which reads files); written to a temporary folder
    when None."""
    import numpy as np

    from pokerdyn.games import GameError, compile_game
    from pokerdyn.games.io.efg import game_from_efg

    state: dict[str, Any] = {}

    def read() -> str:
        try:
            g = gambit_read(text)
        except Exception as exc:  # noqa: BLE001
            state["gambit_error"] = " ".join(str(exc).split())[:200]
            g = None
        state["g"] = g
        try:
            state["game"] = game_from_efg(text, name)
        except GameError as exc:
            if g is None:
                raise Skip(f"Gambit refuses it too: {state['gambit_error']}") from None
            recall = "imperfect recall too" if not g.is_perfect_recall else "perfect recall"
            raise GameError(f"{exc} [pygambit: {recall}]") from None
        if g is None:
            return f"read; Gambit refuses it: {state['gambit_error']}"
        return "read"

    r = attempt(read)
    yield "read", r
    game, g = state.get("game"), state.get("g")
    if game is None or g is None:
        return
    yield "players", str(game.n_players)

    def structure() -> str:
        state["map"] = match_trees(game, g)
        return f"agree ({game.n_infosets} sets, {len(game.terminal_node)} terminals)"

    yield "structure", attempt(structure)
    infomap = state.get("map")
    if infomap is None:
        return
    scale = payoff_scale(g)

    def uniform() -> str:
        from pokerdyn.solvers.evaluation import regrets
        cg = state["cg"] = compile_game(game)
        sigma = cg.legal / cg.n_actions[:, None].astype(np.float64)
        ours = float(regrets(cg, sigma).max())
        n = strategy_profiles(game, cg)
        if n > MAX_GAMBIT_PROFILES:
            raise Skip(f"ours {ours:.6g}; pygambit's max_regret does not finish on {n:.3g} "
                       "reduced strategy profiles")
        theirs = float(g.mixed_behavior_profile(rational=True).max_regret())
        if abs(ours - theirs) > REL_TOL * scale:
            raise Differs(f"max regret {ours!r}, Gambit {theirs!r}")
        return f"agree ({theirs:.6g})"

    yield "uniform", attempt(uniform)
    cg = state.get("cg")
    found: list[tuple[str, Any, bool]] = []   # (what, behaviour rows, exact)
    players = list(g.players)
    two = game.n_players == 2

    def lp() -> str:
        import pygambit as gbt

        from pokerdyn.solvers import solve_lp
        from pokerdyn.solvers.sequence.lp import lp_solver_result
        if not two:
            raise Skip(f"{game.n_players} players")
        if cg is None:
            raise Skip("not compiled")
        const = bool(g.is_const_sum)
        if not const:
            try:
                solve_lp(cg)
            except GameError as exc:
                if "lcp" not in str(exc).lower():
                    raise Differs(f"general-sum refused without naming the LCP: {exc}") \
                        from None
                return "n/a (general-sum; refused, names the LCP)"
            raise Differs("general-sum game solved by the LP")
        res = solve_lp(cg)
        out = lp_solver_result(cg, res)
        plans = getattr(res, "exact_plans", None)
        if plans is not None:
            found.append(("lp", exact_behaviour(cg, plans), True))
        else:
            found.append(("lp", res.strategies, False))
        exact = out.options.get("exact_payoffs")
        ref = gbt.nash.lp_solve(g, rational=True).equilibria
        note = ""
        if not ref or not is_profile(g, ref[0]) or Fraction(ref[0].max_regret()) != 0:
            ref = gbt.nash.lcp_solve(g, rational=True).equilibria
            note = "; Gambit's lp profile fails its check, its lcp used"
        want = [frac(ref[0].payoff(p)) for p in players]
        if exact is None:
            got = [float(x) for x in out.expected_payoffs]
            raise Differs(f"no exact payoffs (floats {tuple_text(got)}), Gambit "
                          f"{tuple_text(want)}{note}")
        got = [Fraction(x) for x in exact]
        if got != want:
            raise Differs(f"payoffs {tuple_text(got)}, Gambit {tuple_text(want)}{note}")
        return f"agree {tuple_text(got)}{note}"

    yield "lp", attempt(lp)

    def lcp() -> str:
        import pygambit as gbt

        from pokerdyn.solvers.sequence.lcp import solve_lcp
        if not two:
            raise Skip(f"{game.n_players} players")
        if cg is None:
            raise Skip("not compiled")
        res = solve_lcp(cg)
        eq = res.equilibria[0]
        if eq.exact_plans is not None:
            found.append(("lcp", exact_behaviour(cg, eq.exact_plans), True))
        else:
            found.append(("lcp", eq.strategies, False))
        ref = gbt.nash.lcp_solve(g, rational=True).equilibria
        wants = [[frac(e.payoff(p)) for p in players] for e in ref]
        if eq.exact_payoffs is None:
            floats = tuple_text(float(x) for x in eq.payoffs)
            raise Differs(f"no exact payoffs (floats {floats}), Gambit {tuple_text(wants[0])}")
        got = [frac(x) for x in eq.exact_payoffs]
        if got not in wants:
            raise Differs(f"payoffs {tuple_text(got)}, Gambit "
                          f"{' or '.join(map(tuple_text, wants))}")
        return f"agree {tuple_text(got)}"

    yield "lcp", attempt(lcp)

    def eq_check() -> str:
        if found and strategy_profiles(game, cg) > MAX_GAMBIT_PROFILES:
            raise Skip(f"pygambit's max_regret does not finish on "
                       f"{strategy_profiles(game, cg):.3g} reduced strategy profiles")
        bad = []
        for what, sigma, exact in found:
            why = gambit_check(g, infomap, sigma, exact)
            if why:
                bad.append(f"{what}: {why}")
        if not found:
            raise Skip("nothing found to check")
        if bad:
            raise Differs("; ".join(bad))
        return f"ok ({', '.join(w for w, _, _ in found)})"

    yield "eq-check", attempt(eq_check)
    fams: list = []

    def enumerate_families() -> str:
        """Our families, and a sample point of each checked by pygambit."""
        from pokerdyn.commands.exact.equilibria import families
        if path is not None:
            fams.extend(s for _, s in families(path, None)[1])
        else:
            with tempfile.TemporaryDirectory() as tmp:
                f = Path(tmp) / f"{name}.efg"
                f.write_text(text, encoding="utf-8")
                fams.extend(s for _, s in families(str(f), None)[1])
        bad = []
        for k, sol in enumerate(fams):
            sigma = _rows_of_named(game, sol.sample())
            exact = all(isinstance(v, Fraction) for row in sigma for v in row)
            why = gambit_check(g, infomap, sigma, exact)
            if why:
                bad.append(f"family {k + 1}: {why}")
        if bad:
            raise Differs(f"{len(fams)} families; " + "; ".join(bad))
        return f"ok ({len(fams)} families, each point checked by pygambit)"

    enum = attempt(enumerate_families) if enumerate_ else "n/a (not run)"
    yield "enum", enum

    def enummixed() -> str:
        import pygambit as gbt

        from pokerdyn.games.normal_form import plan_count, sequences
        if not two:
            raise Skip(f"{game.n_players} players")
        if not enum.startswith("ok") and not fams:
            raise Skip(f"enumeration {category(enum)}")
        sq, n_act = sequences(game), cg.n_actions.astype(np.int64)
        counts = [plan_count(sq, p, n_act) for p in range(2)]
        if max(counts) > MAX_ENUMMIXED_STRATEGIES:
            raise Skip(f"reduced strategies {counts[0]} x {counts[1]}, beyond "
                       f"{MAX_ENUMMIXED_STRATEGIES} per player")
        eqs = gbt.nash.enummixed_solve(g, rational=True).equilibria
        missing = []
        for k, mixed in enumerate(eqs):
            sigma = gambit_behaviour(game, infomap, mixed.as_behavior())
            point = named_values(game, sigma, own_reached(game, sigma))
            if not any(in_family(sol, point) for sol in fams):
                missing.append(k + 1)
        if missing:
            raise Differs(f"extreme equilibria {missing} of {len(eqs)} in none of our "
                          f"{len(fams)} families")
        return f"agree ({len(eqs)} extreme in {len(fams)} families)"

    yield "enummixed", attempt(enummixed)

    def enumpoly_() -> str:
        import pygambit as gbt
        if not enumpoly:
            raise Skip("not run")
        if not enum.startswith("ok") and not fams:
            raise Skip(f"enumeration {category(enum)}")
        eqs = gbt.nash.enumpoly_solve(g).equilibria
        missing, invalid = [], []
        for k, prof in enumerate(eqs):
            # not an equilibrium by pygambit's own check (absolute: on large_payoff_game,
            # payoffs 1e19, enumpoly returns pure profiles of regret 0.5, 1 and 1.5)
            if float(prof.max_regret()) > ENUMPOLY_TOL:
                invalid.append(k + 1)
                continue
            sigma = gambit_behaviour(game, infomap, prof, as_float=True)
            reached = own_reached(game, [[Fraction(v).limit_denominator(10**12) if v > 1e-12
                                          else 0 for v in row] for row in sigma])
            point = named_values(game, sigma, reached)
            if min((near_family(sol, point) for sol in fams), default=np.inf) > ENUMPOLY_TOL:
                missing.append(k + 1)
        if missing:
            raise Differs(f"equilibria {missing} of {len(eqs)} farther than {ENUMPOLY_TOL:g} "
                          f"from our {len(fams)} families"
                          + (f" (and {invalid} fail Gambit's own check)" if invalid else ""))
        note = f"; Gambit's {invalid} fail its own regret check" if invalid else ""
        return f"agree ({len(eqs) - len(invalid)} in {len(fams)} families{note})"

    yield "enumpoly", attempt(enumpoly_)


def check_nfg(text: str, name: str) -> Iterator[tuple[str, str]]:
    """The checks of one .nfg file: read by :func:`games.io.nfg.read_nfg` and pygambit,
    players, strategy counts and every payoff compared exactly (the solvers take
    extensive-form games; their cells are ``n/a``)."""
    from pokerdyn.games.io.nfg import read_nfg

    state: dict[str, Any] = {}

    def read() -> str:
        state["g"] = gambit_read(text, "nfg")
        state["nfg"] = read_nfg(text)
        return "read"

    yield "read", attempt(read)
    nfg, g = state.get("nfg"), state.get("g")
    if nfg is None or g is None:
        return
    yield "players", str(len(nfg.players))

    def structure() -> str:
        bad = nfg_disagreements(nfg, g)
        if bad:
            raise Differs("; ".join(bad))
        return f"agree ({' x '.join(str(len(p.strategies)) for p in g.players)} strategies)"

    yield "structure", attempt(structure)
    for c in CHECKS[CHECKS.index("uniform"):]:
        yield c, "n/a (normal form)"


def _rows_of_named(game, values: dict) -> list[list]:
    """Behaviour rows of named-parameter values (the first action of a set gets the
    rest); rationals become Fractions, other numbers floats."""
    import sympy as sp

    rows = []
    for I in game.infosets:
        rows.append([None] * len(I.actions))
    for par in game.named:
        I = game.infoset_index(par.infoset)
        v = sp.nsimplify(values[par.name]) if par.name in values else sp.Integer(0)
        rows[I][game.infosets[I].actions.index(par.action)] = \
            Fraction(int(v.p), int(v.q)) if v.is_Rational else float(v)
    out = []
    for row in rows:
        rest = [x for x in row if x is not None]
        first = (Fraction(1) - sum(rest, Fraction(0))) if all(isinstance(x, Fraction)
                                                             for x in rest) \
            else 1.0 - sum(float(x) for x in rest)
        out.append([first if x is None else x for x in row] if len(row) > 1 else [Fraction(1)])
    return out


# ----------------------------------------------------------------------------- driver

def worker() -> None:
    """Read one JSON request per line (``{"name", "text"}``), write one JSON line per
    finished check, then ``{"done": true}``."""
    for line in sys.stdin:
        req = json.loads(line)
        checks = check_nfg if req.get("nfg") else check_game
        for check, result in checks(req["text"], req["name"]):
            print(json.dumps({"check": check, "result": result}), flush=True)
        print(json.dumps({"done": True}), flush=True)


class Pool:
    """One worker process at a time; a file past its time limit kills it (and its
    children: its own process group) and the next file starts a fresh one."""

    def __init__(self, timeout: float):
        self.timeout, self.proc = timeout, None

    def _start(self):
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True,
                                     start_new_session=True)

    def kill(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None

    def run(self, name: str, text: str, nfg: bool = False) -> dict[str, str]:
        if self.proc is None:
            self._start()
        out: dict[str, str] = {}
        self.proc.stdin.write(json.dumps({"name": name, "text": text, "nfg": nfg}) + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + self.timeout
        fd, buf = self.proc.stdout.fileno(), b""
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        try:   # unbuffered reads of the pipe: a line already read is never waited for
            while True:
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    msg = json.loads(line)
                    if msg.get("done"):
                        return out
                    out[msg["check"]] = msg["result"]
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self.kill()
                    out["_end"] = f"timeout ({self.timeout:g} s)"
                    return out
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    code = self.proc.wait()
                    self.proc = None
                    out["_end"] = f"crash: worker exited with status {code}"
                    return out
                buf += chunk
        finally:
            sel.close()


def gambit_files(repo: str, suffixes: tuple[str, ...] = (".efg",)) -> list[str]:
    names = subprocess.run(["git", "--git-dir", repo, "ls-tree", "-r", "--name-only", "HEAD"],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    return sorted(n for n in names if n.endswith(suffixes))


def git_text(repo: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", repo, "show", f"HEAD:{path}"], check=True,
                          capture_output=True).stdout.decode("utf-8", errors="replace")


def category(cell: str) -> str:
    """The outcome word of a cell: read, agree, ok, n/a, refused, crash, differs, timeout
    (``not reached``: a check after a refused read or a time-out)."""
    for word in ("refused", "crash", "differs", "timeout", "n/a", "agree", "ok", "read"):
        if cell.startswith(word):
            return word
    return "other" if cell else "not reached"


def table(rows: list[dict], seconds: float, repo: str) -> str:
    from collections import Counter

    cols = [c for c in CHECKS if c != "players"]
    lines = [f"Gambit repository collection: {len(rows)} files ({repo}, HEAD), "
             f"{seconds:.0f} s.", "", "| check | " + " | ".join(
                 ["agree/ok/read", "n/a", "refused", "differs", "crash", "timeout",
                  "not reached"]) + " |", "|---" * 8 + "|"]
    for c in cols:
        cnt = Counter(category(r.get(c, "")) for r in rows)
        good = cnt["agree"] + cnt["ok"] + cnt["read"]
        lines.append(f"| {c} | {good} | {cnt['n/a']} | {cnt['refused']} | {cnt['differs']} | "
                     f"{cnt['crash']} | {cnt['timeout']} | {cnt['not reached']} |")
    refused = [r for r in rows if category(r.get("read", "")) in ("refused", "crash",
                                                                 "timeout")]
    if refused:
        lines += ["", "Files not read:", ""]
        lines += [f"- `{r['file']}`: {r['read']}" for r in refused]
    lines += ["", "| file | " + " | ".join(CHECKS) + " | s |", "|---" * (len(CHECKS) + 2) + "|"]
    for r in rows:
        cells = [r.get(c, "") for c in CHECKS]
        cells = [c.replace("|", "\\|") for c in cells]
        lines.append(f"| `{r['file']}` | " + " | ".join(cells) + f" | {r['seconds']:.1f} |")
    return "\n".join(lines) + "\n"


QUICK = ["--only", "e18", "montyhal", "--jobs", "1"]


def main(argv: list[str] | None = None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", default=DEFAULT_REPO, help="git directory of Gambit's repository")
    ap.add_argument("--out", default=None, help="write the Markdown table here (default: print)")
    ap.add_argument("--json", default=None, help="also write the rows as JSON here")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per file (default 60)")
    ap.add_argument("--only", nargs="*", default=None, help="files whose path contains one of these")
    ap.add_argument("--jobs", type=int, default=1, help="files checked at once (default 1)")
    ap.add_argument("--nfg", action="store_true", help="the .nfg files too (read and payoffs)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker()
        return []
    files = gambit_files(args.repo, (".efg", ".nfg") if args.nfg else (".efg",))
    if args.only:
        files = [f for f in files if any(s in f for s in args.only)]
    import queue
    import threading

    todo: queue.Queue = queue.Queue()
    for k, path in enumerate(files):
        todo.put((k, path))
    rows: list[dict | None] = [None] * len(files)
    lock, t0 = threading.Lock(), time.perf_counter()

    pools: list[Pool] = []

    def serve() -> None:
        pool = Pool(args.timeout)
        pools.append(pool)
        try:
            while True:
                try:
                    k, path = todo.get_nowait()
                except queue.Empty:
                    return
                t = time.perf_counter()
                res = pool.run(Path(path).stem, git_text(args.repo, path),
                               path.endswith(".nfg"))
                end = res.pop("_end", None)
                row = {"file": path, **res, "seconds": time.perf_counter() - t}
                if end:
                    row[next(c for c in CHECKS if c not in res)] = end
                rows[k] = row
                with lock:
                    done = sum(r is not None for r in rows)
                    print(f"[{done}/{len(files)}] {path} {row['seconds']:.1f}s "
                          + " ".join(f"{c}={category(row.get(c, ''))}" for c in CHECKS
                                     if c != "players"), file=sys.stderr, flush=True)
        finally:
            pool.kill()

    threads = [threading.Thread(target=serve, daemon=True) for _ in range(max(1, args.jobs))]
    for th in threads:
        th.start()
    try:
        for th in threads:
            th.join()
    finally:   # an interrupt: no worker (each in its own session) is left running
        for pool in pools:
            pool.kill()
    rows = [r for r in rows if r is not None]
    seconds = time.perf_counter() - t0
    text = table(rows, seconds, args.repo)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        print(text)
    return [Measurement(f"every check of {len(rows)} Gambit files ({args.jobs} at once)",
                        "pokerdyn and pygambit", seconds)] + \
        [Measurement(f"checks of {r['file']}", "pokerdyn and pygambit", r["seconds"])
         for r in rows]


if __name__ == "__main__":
    script_main(main)
