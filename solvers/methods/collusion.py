"""Payoffs under collusion, for any 3-player game with a collusion variant (Mercer, hold'em
paper sec. 5 and Table 7; the Java ``ComputeNash``).

Players A and B may collude against C.  Three cases (the paper's):

- **public**: A and B collude and C knows it: all three play an equilibrium of the collusion
  game;
- **private**: A and B play the collusion game's equilibrium, C plays her equilibrium strategy
  of the game without collusion (evaluated in the collusion game);
- **suspicious**: A and B do not collude (no-collusion game and equilibrium), C plays her
  strategy of the collusion game's equilibrium.

C's information sets are the same in both games and are matched by label.  The dealer
rotates every hand (the paper's assumption): hand 1 seats A, B, C at 1, 2, 3; hand 2 seats
B, C, A; hand 3 seats C, A, B; so the colluders sit at seats (1, 2), (1, 3) and (2, 3), each
arrangement with its own collusion game and equilibrium, while the no-collusion equilibrium
is shared.  Payoffs are per hand, averaged over the three hands, ordered (C, A, B).

Every game is solved by a ``solve`` callback: CFR+ to a NashConv (equilibrium), or the
paper's own fictitious play stopped at its epsilon (``iterative_solver("paper-fp",
epsilon=...)``, :func:`solvers.learning.paper_fp.paper_fictitious_play`), the way the
paper's Tables 2-6 and 8 were computed.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from pokerdyn.games import CompiledGame, Game, GameError, compile_game
from pokerdyn.games.strategy import check_strategy

from pokerdyn.solvers.evaluation import check_player, expected_payoffs, regrets
from pokerdyn.solvers.methods import (  # noqa: F401  (PAPER_FP_CHECK: figures.mercer.table7's)
    COLLUSION_METHODS, PAPER_FP_CHECK, PAPER_FP_EPSILON, MethodOptions, check_method, run_method)


class Solved(NamedTuple):
    """What :func:`iterative_solver`'s callbacks return: the ``strategy``, its ``nash_conv``
    (sum of the players' regrets) and ``max_regret`` (the largest), the ``iterations`` run
    (None where unknown, e.g. a cached profile) and whether the solver's stopping rule was
    met (``converged``) before the cap."""

    strategy: NDArray[np.float64]
    nash_conv: float
    max_regret: float
    iterations: int | None
    converged: bool


Make = Callable[[str | None, tuple[int, int] | None], Game]
# a solve returns (profile, nash_conv), or a Solved (whose first two fields are those)
Solve = Callable[[CompiledGame], "tuple[NDArray[np.float64], float] | Solved"]
# the methods a collusion solve may use and paper-fp's check interval: the numeric
# registry's (pokerdyn.solvers.methods), named here for the callers of this module
METHODS = COLLUSION_METHODS

# Seats (1-based) of A, B, C in the three hands of a dealer rotation.
ROTATION: tuple[dict[str, int], ...] = ({"A": 1, "B": 2, "C": 3}, {"A": 3, "B": 1, "C": 2},
                                        {"A": 2, "B": 3, "C": 1})
ORDER = ("C", "A", "B")  # the non-colluder first


@dataclass(frozen=True)
class Arrangement:
    """One hand of the rotation: the seats of A, B, C, and the three cases' payoffs (C, A, B)."""

    seats: dict[str, int]
    colluders: tuple[int, int]
    public: NDArray[np.float64]
    private: NDArray[np.float64]
    suspicious: NDArray[np.float64]
    nash_conv: float


@dataclass(frozen=True)
class CollusionPayoffs:
    """Payoffs per hand, averaged over the dealer rotation, each ordered (C, A, B).

    ``nash_conv`` holds the NashConv of every solve: ``"none"`` for the no-collusion game and
    ``"1,2"`` ... for the collusion game with the colluders at those seats; ``max_regret``,
    ``iterations`` and ``converged`` the same keys where the solve returns a :class:`Solved`
    (else empty)."""

    kind: str
    public: NDArray[np.float64]
    private: NDArray[np.float64]
    suspicious: NDArray[np.float64]
    arrangements: tuple[Arrangement, ...]
    nash_conv: dict[str, float]
    seconds: float
    max_regret: dict[str, float] = field(default_factory=dict)
    iterations: dict[str, int] = field(default_factory=dict)
    converged: dict[str, bool] = field(default_factory=dict)


def check_epsilon(epsilon: float, game: Game | CompiledGame | None = None) -> float:
    """The paper's epsilon (a bound on the largest single-player regret) as a float in
    ``(0, span)``, ``span`` the ``game``'s payoff range (largest minus smallest payoff of a
    player, a bound on any regret: a larger epsilon stops at the uniform start); GameError
    (one line) otherwise."""
    span = math.inf
    if game is not None:
        u = np.asarray(game.payoffs, dtype=np.float64)
        span = float((u.max(axis=0) - u.min(axis=0)).max()) if u.size else 0.0
    try:
        eps = math.nan if isinstance(epsilon, bool) else float(epsilon)
    except (TypeError, ValueError):
        eps = math.nan
    if not 0 < eps < span:  # NaN and inf fail too
        why = "" if math.isinf(span) else (" (a regret is below the game's payoff range; a "
                                           "larger epsilon stops at the uniform start)")
        text = f"{epsilon:g}" if isinstance(epsilon, (int, float)) and \
            not isinstance(epsilon, bool) else repr(epsilon)
        raise GameError(f"epsilon={text} is outside the allowed range (0, {span:g}){why}")
    return eps


def iterative_solver(method: str = "cfr+", tol: float | None = 0.01, iterations: int = 10_000,
                     progress: bool = False, *, epsilon: float | None = None) -> Solve:
    """A ``solve`` callback returning :class:`Solved`: CFR+ (``"cfr+"``) or fictitious play
    (``"fp"``) until NashConv <= ``tol`` or ``iterations``; or the paper's fictitious play
    (``"paper-fp"``, Mercer's ``Strategies.nes``: uniform start, ``1/(t+1)`` averaging per
    information set) until the largest single-player regret is below ``epsilon`` (default
    0.01, the paper's "0.01-equilibrium") or ``iterations`` (``tol`` unused)."""
    check_method(method, METHODS)
    if method == "paper-fp":
        epsilon = check_epsilon(PAPER_FP_EPSILON if epsilon is None else epsilon)
    elif epsilon is not None:
        raise GameError(f"epsilon={epsilon!r} is allowed with method 'paper-fp' only; "
                        f"{method} stops at tol")
    # the registry's method (solvers.methods): paper-fp reads epsilon, cfr+ and fp tol
    options = MethodOptions(iterations=iterations, tol=None if method == "paper-fp" else tol,
                            epsilon=epsilon, progress=progress and method != "paper-fp")

    def solve(cg: CompiledGame) -> Solved:
        res = run_method(method, cg, options)
        if method == "paper-fp":  # max_regret: of the returned profile, as the Java's
            reg = res.options["regrets"]
        else:
            reg = regrets(cg, res.strategy, check=False)
        return Solved(res.strategy, float(res.nash_conv), float(reg.max()),
                      int(res.iterations), bool(res.converged))
    return solve


def transplant(dst: CompiledGame, sigma: NDArray[np.float64], src: CompiledGame,
               src_sigma: NDArray[np.float64], player: int) -> NDArray[np.float64]:
    """``sigma`` (a profile of ``dst``) with ``player``'s rows (0-based) taken from
    ``src_sigma`` (a profile of ``src``), information sets matched by label; GameError when
    one of the player's sets of ``dst`` is missing in ``src`` or has other actions."""
    player = check_player(dst, player)
    out = check_strategy(dst, sigma, "sigma").copy()
    src_sigma = check_strategy(src, src_sigma, "src_sigma")
    src_infosets = src.game.infosets
    index = {I.label: i for i, I in enumerate(src_infosets)}
    missing = []
    for i, I in enumerate(dst.game.infosets):
        if I.player != player:
            continue
        j = index.get(I.label)
        if j is None or src_infosets[j].actions != I.actions or src_infosets[j].player != player:
            missing.append(I.label)
            continue
        out[i] = 0.0
        out[i, :len(I.actions)] = src_sigma[j, :len(I.actions)]
    if missing:
        raise GameError(f"player {player + 1}'s information sets differ between {src.name!r} "
                        f"and {dst.name!r}: {len(missing)} not matched by label and actions "
                        f"(first: {missing[0]!r})")
    return out


def _by_role(u: NDArray[np.float64], seats: dict[str, int]) -> NDArray[np.float64]:
    return np.array([u[seats[r] - 1] for r in ORDER], dtype=np.float64)


def _compiled(game: Game, what: str) -> CompiledGame:
    if game.n_players != 3:
        raise GameError(f"collusion needs a 3-player game; {what}{game.name!r} has "
                        f"{game.n_players} players")
    return compile_game(game)


def collusion_payoffs(make: Make, kind: str, solve: Solve | None = None, *,
                      tol: float | None = 0.01, iterations: int = 10_000,
                      progress: bool = False) -> CollusionPayoffs:
    """The public, private and suspicious payoffs (C, A, B) of collusion ``kind``.

    Parameters
    ----------
    make : ``make(collusion, colluders) -> Game``; ``make(None, None)`` is the game without
        collusion, ``make(kind, (i, j))`` the collusion game with colluders at 1-based seats
        ``i < j``.
    solve : ``solve(compiled_game) -> (profile, nash_conv)``; default CFR+ to ``tol`` or
        ``iterations`` (:func:`iterative_solver`).
    """
    start = time.perf_counter()
    solve = solve or iterative_solver("cfr+", tol, iterations, progress)
    pairs = [tuple(sorted((seats["A"], seats["B"]))) for seats in ROTATION]
    # build the no-collusion game and one collusion game before any solve, so that a bad
    # game or option fails at once (and at most two games are held at a time)
    g0 = _compiled(make(None, None), "")
    gc = _compiled(make(kind, pairs[0]), "collusion ")
    bar = tqdm(total=1 + len(ROTATION), desc=f"collusion ({kind})", disable=not progress,
               leave=False, unit="solve")
    ncs: dict[str, float] = {}
    extra: dict[str, dict] = {"max_regret": {}, "iterations": {}, "converged": {}}

    def solved(cg: CompiledGame, key: str) -> tuple[NDArray[np.float64], float]:
        r = solve(cg)
        ncs[key] = float(r[1])
        if isinstance(r, Solved):
            for name, d in extra.items():
                d[key] = getattr(r, name)
        return r[0], float(r[1])
    try:
        s0, _ = solved(g0, "none")
        bar.update(1)
        rows = []
        for k, (seats, pair) in enumerate(zip(ROTATION, pairs)):
            if k:
                gc = _compiled(make(kind, pair), "collusion ")
            sc, ncc = solved(gc, f"{pair[0]},{pair[1]}")
            c = seats["C"] - 1
            private = transplant(gc, sc, g0, s0, c)
            suspicious = transplant(g0, s0, gc, sc, c)
            rows.append(Arrangement(
                seats=dict(seats), colluders=pair,
                public=_by_role(expected_payoffs(gc, sc), seats),
                private=_by_role(expected_payoffs(gc, private), seats),
                suspicious=_by_role(expected_payoffs(g0, suspicious), seats),
                nash_conv=float(ncc)))
            bar.update(1)
    finally:
        bar.close()

    def mean(case: str) -> NDArray[np.float64]:
        return np.mean([getattr(r, case) for r in rows], axis=0)
    return CollusionPayoffs(kind=kind, public=mean("public"), private=mean("private"),
                            suspicious=mean("suspicious"), arrangements=tuple(rows),
                            nash_conv=ncs, seconds=time.perf_counter() - start, **extra)


def record(res: CollusionPayoffs, game: str, method: str, tol: float | None = None,
           epsilon: float | None = None) -> dict:
    """``res`` as the ``collusion`` command's JSON object (the same keys for every method):
    ``tol`` (NashConv target of cfr+ and fp) or ``epsilon`` (paper-fp's regret bound) is
    None where unused; ``nash_conv``, ``max_regret``, ``iterations`` map every solve
    (``"none"``, ``"1,2"``, ...) to its value; ``converged``: every solve met its rule."""
    conv = (all(res.converged.values()) if res.converged else
            all(v <= tol for v in res.nash_conv.values()) if tol is not None else None)
    return {"game": game, "kind": res.kind, "method": method, "tol": tol, "epsilon": epsilon,
            "players": list(ORDER),
            "public": [float(x) for x in res.public],
            "private": [float(x) for x in res.private],
            "suspicious": [float(x) for x in res.suspicious],
            "nash_conv": res.nash_conv, "max_regret": res.max_regret,
            "iterations": res.iterations, "converged": conv,
            "seats": [r.seats for r in res.arrangements],
            "hands": [{"seats": r.seats, "colluders": list(r.colluders),
                       "public": r.public.tolist(), "private": r.private.tolist(),
                       "suspicious": r.suspicious.tolist(), "nash_conv": r.nash_conv}
                      for r in res.arrangements],
            "seconds": res.seconds}
