"""The one entry point of the exact equilibrium wing: :func:`solve_equilibria` chooses among
the exact algorithms (``method="auto"``), runs the one chosen and returns its record (the
JSON of ``pokerdyn equilibria``) with ``method`` (which algorithm ran) and
``method_reason`` (why), and every family in one form (:mod:`solvers.symbolic.families.family_view`).

The algorithms, and when ``auto`` takes each:

``casesearch``
    The exact case search (:mod:`solvers.symbolic.axis.piecewise`): every equilibrium, piecewise over the whole
    P axis or at one pot.  Two actions per information set and at most
    ``enumeration.MAX_PARAMETERS`` named parameters, or, for a game without a pot, that
    many left after iterated strict dominance.
``behaviour-supports``
    Enumeration over behaviour supports (:mod:`solvers.symbolic.axis.support_families`): games with an
    information set of more than two actions, at one exact pot.
``axis``
    Complete exact enumerations at rational pots along P (:mod:`solvers.symbolic.axis`), piecewise over
    ``pots`` (default 2:20): past the case search, no ``pot``, at most ``MAX_NAMED`` named
    parameters, the dominance-reduced rest within the case search's size.
``supports``
    Supports proposed by seeded CFR+ and FP runs, solved and certified exactly
    (:mod:`solvers.symbolic.learned`): past the case search otherwise; at one pot, or with ``pots`` solved
    with P symbolic and reported piecewise (record ``method``: "supports, P symbolic").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import sympy as sp

from pokerdyn.games import Game, GameError

METHODS = ("auto", "casesearch", "behaviour-supports", "axis", "supports")
MAX_NAMED = 40  # dominance over more named frequencies takes too long for the axis path
DEFAULT_AXIS_RANGE = "2:20"


@dataclass(frozen=True)
class Choice:
    """The algorithm chosen, why, and the parameters dominance fixed for the case search
    (None: not reduced)."""

    method: str
    reason: str
    fixed: dict | None = None


@dataclass(frozen=True)
class Equilibria:
    """What :func:`solve_equilibria` found: the algorithm and why, the record (JSON-ready,
    every family with ``strategy_by_infoset`` and ``payoffs`` in its free parameters), and
    the objects the text output is written from: ``families`` ((P set, Solution) pairs of
    the case search and the behaviour supports), ``found`` (the EquilibriumSet or PotSweep
    of the support method), ``pot`` (the exact pot of a one-pot run) and ``fixed``."""

    game: Game
    method: str
    reason: str
    record: dict
    families: tuple = ()
    found: Any = None
    pot: Any = None
    fixed: dict | None = None
    pots: tuple | None = None  # (low, high) of a range run


def axis_applies(game: Game, pot: Any) -> bool:
    """Whether the whole-axis enumeration answers: no pot, a pot parameter, at most
    MAX_NAMED named frequencies."""
    return pot is None and "P" in game.param_names and len(game.named) <= MAX_NAMED


def reduced(game: Game, seeds: int | None) -> dict | None:
    """For a game without a pot past the case search by its named parameters: the
    parameters that iterated strict dominance (counterfactual gains, exact) fixes, when the
    rest fit the case search.  The case search then finds every equilibrium that plays no
    action strictly dominated wherever reached, the same reduction the support method
    starts from (nim7.efg: 20 named, 3 left; mercer-smh: 30, 8 left).  More left: None
    with ``seeds`` (the support method, from that many learning runs), else GameError
    with the size (the learning runs take minutes and claim no completeness)."""
    from pokerdyn.solvers.symbolic.model.conditions import MAX_PARAMETERS, require_two_actions
    from pokerdyn.solvers.symbolic.model.sparse_gains import undominated

    require_two_actions(game)
    fixed = undominated(game, None)[2]
    left = len(game.named) - len(fixed)
    if left <= MAX_PARAMETERS:
        return fixed
    if seeds is None:
        raise GameError(f"game {game.name!r} has {left} undominated parameters (of "
                        f"{len(game.named)}); the exact case search takes at most "
                        f"{MAX_PARAMETERS}: --seeds N proposes supports from N learning runs "
                        "instead (minutes; complete only for the supports the runs reach)")
    return None


def choose_method(game: Game, pot: Any = None, pots: Any = None, seeds: int | None = None,
                  method: str = "auto") -> Choice:
    """The algorithm for ``game`` (module docstring), the reason, and the parameters
    dominance fixes; ``pot``/``pots``: whether a pot or a pot range is asked (their values
    are read later).  An explicit ``method`` is taken as asked (its own checks refuse a
    game it cannot take)."""
    from pokerdyn.solvers.symbolic.casesearch.behaviour_supports import many_actions
    from pokerdyn.solvers.symbolic.model.conditions import MAX_PARAMETERS

    if method not in METHODS:
        raise GameError(f"method={method!r} is not one of {', '.join(METHODS)}")
    n = len(game.named)
    if method != "auto":
        return Choice(method, f"asked for (method={method!r})")
    many = many_actions(game)  # enumerated over behaviour supports, whatever its size
    if many:
        if pots:
            raise GameError(f"--pots is for two-action games past the case search; "
                            f"{game.name!r} has information sets of more than 2 actions and "
                            "is enumerated over behaviour supports (at one pot: --pot)")
        return Choice("behaviour-supports", "an information set has more than 2 actions: "
                      "the two-action case search does not apply, so every behaviour support "
                      "is solved exactly")
    fixed = None
    if n > MAX_PARAMETERS and "P" not in game.param_names and not pots:
        fixed = reduced(game, seeds)  # dominance may bring it within the case search
    if n > MAX_PARAMETERS and fixed is None:  # supports from learning
        past = f"{n} named parameters, more than the case search's {MAX_PARAMETERS}"
        if axis_applies(game, pot):
            return Choice("axis", f"{past}; no pot and at most {MAX_NAMED}: complete exact "
                          "enumerations at rational pots, piecewise along P")
        if pots:
            return Choice("supports", f"{past}: supports proposed by seeded learning runs at "
                          "sample pots, solved with P symbolic and certified exactly")
        return Choice("supports", f"{past}: supports proposed by seeded learning runs, solved "
                      "and certified exactly")
    if pots:
        raise GameError(f"--pots is for games past the case search (> {MAX_PARAMETERS} "
                        f"parameters); {game.name!r} is enumerated over every P without --pot")
    if fixed is not None:
        return Choice("casesearch", f"{n} named parameters; iterated strict dominance fixes "
                      f"{len(fixed)}, the other {n - len(fixed)} fit the exact case search "
                      f"(at most {MAX_PARAMETERS})", fixed)
    where = "at the pot" if pot is not None else \
        "piecewise over the whole P axis" if "P" in game.param_names else "(no pot)"
    return Choice("casesearch", f"{n} named parameters, within the exact case search (at "
                  f"most {MAX_PARAMETERS}): every equilibrium, {where}")


def case_search(game: Game, pot: Any, fixed: dict | None = None, force: bool = False) -> list:
    """``[(P set, Solution), ...]`` of the case search (or, for a game with an information
    set of more than two actions, the behaviour supports): piecewise in P, or at the exact
    ``pot``; ``fixed``: parameters set by dominance (:func:`reduced`), the rest
    enumerated.  A two-action game whose case walk reaches more than
    ``walk.MAX_CASE_LEAVES`` case combinations is refused with that size (GameError),
    unless ``force``."""
    from pokerdyn.solvers.symbolic.casesearch import walk
    from pokerdyn.solvers.symbolic.casesearch.behaviour_supports import many_actions
    from pokerdyn.solvers.symbolic.model.conditions import MAX_PARAMETERS
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces, solutions_at

    n = len(game.named) - len(fixed or {})
    if len(game.named) == 0:
        raise GameError(f"game {game.name!r} has no named parameters to enumerate")
    if many_actions(game):  # more than two actions somewhere: over behaviour supports
        from pokerdyn.solvers.symbolic.axis.support_families import solutions
        if pot is None:
            return [(sp.S.Reals, s) for s in solutions(game)]
        return [(sp.FiniteSet(pot), s) for s in solutions(game, {"P": pot})]
    if n > MAX_PARAMETERS:
        raise GameError(f"game {game.name!r}: too many parameters to enumerate "
                        f"({n} > {MAX_PARAMETERS}); follow its equilibria along P with "
                        "`pokerdyn continuation GAME --pots A:B`")
    with walk.leaf_limit(None if force else walk.MAX_CASE_LEAVES, game.name):
        if pot is None:
            return [(pc.p_set, s) for pc in equilibrium_pieces(game, fixed)
                    for s in pc.solutions]
        return [(sp.FiniteSet(pot), s) for s in solutions_at(game, pot, fixed)]


def solve_equilibria(game: Game, pot: Any = None, pots: str | None = None,
                     method: str = "auto", *, seeds: int | None = None, seed: int = 0,
                     workers: int | None = None, read_pot: Callable[[str], Any] | None = None,
                     state: dict | None = None, save_state: Callable[[], None] | None = None,
                     proof_state: Any = None, prove_complete: bool = False,
                     progress: bool = False, force: bool = False) -> Equilibria:
    """Every exact equilibrium family of ``game`` by the algorithm ``method`` chooses
    (module docstring): at the pot ``pot`` (text as ``--pot`` takes it, or an exact
    number), piecewise in P (no pot), or over ``pots`` (``"A:B"``, B may be ``oo`` on the
    whole-axis path).  ``read_pot(text)`` reads a pot with the game's domain check
    (default :func:`solvers.symbolic.model.pot_values.exact_pot`).  The support method runs ``seeds`` seeded
    learning runs (default 20 at one pot, 4 per sample pot) from ``seed`` in ``workers``
    processes.  The whole-axis path resumes from ``state`` (pots done, updated in place;
    ``save_state()`` is called after each pot) and with ``prove_complete`` proves the
    result complete (its own resume file ``proof_state``).  ``progress``: bars on stderr.
    ``force``: run the case search past its size limit (:func:`case_search`)."""
    from pokerdyn.solvers.symbolic.model.pot_values import exact_pot

    read = read_pot or exact_pot
    choice = choose_method(game, pot, pots, seeds, method)
    value = read(pot) if isinstance(pot, str) else (exact_pot(pot) if pot is not None else None)
    if choice.method == "axis":
        from pokerdyn.solvers.symbolic.certificates.axis_run import axis_record
        from pokerdyn.solvers.symbolic.model.pot_values import pot_range

        if value is not None or "P" not in getattr(game, "param_names", ("P",)):
            raise GameError("method='axis' follows P without a pot; the game needs a pot "
                            "parameter P and no --pot")
        low, high = pot_range(pots or DEFAULT_AXIS_RANGE, unbounded=True)
        rec = axis_record(game, low, high, {"pots": {}, "undecided": {}} if state is None
                          else state, save_state, proof_state, prove_complete, workers,
                          progress)
        if rec is not None:
            return _finish(Equilibria(game, "axis", choice.reason, rec, pots=(low, high)))
        choice = Choice("supports", choice.reason + "; dominance leaves more than the case "
                        "search takes, so supports from seeded learning runs instead")
        pots = None
    if choice.method == "supports":
        return _supports(game, value, pots, choice.reason, seeds, seed, workers, read,
                         progress)
    fams = case_search(game, value, choice.fixed, force)
    rec: dict = {"game": game.name, "families": []}
    from pokerdyn.solvers.symbolic.axis.family_records import solution_record
    rec["families"] = [solution_record(s, f) for s, f in fams]
    if choice.fixed is not None:
        rec["dominance_fixed"] = {k: int(v) for k, v in choice.fixed.items()}
    name = "behaviour-supports" if _many(game) else "casesearch"
    return _finish(Equilibria(game, name, choice.reason, rec, tuple(fams), pot=value,
                              fixed=choice.fixed))


def _many(game: Game) -> bool:
    from pokerdyn.solvers.symbolic.casesearch.behaviour_supports import many_actions
    return many_actions(game)


def _supports(game: Game, value: Any, pots: str | None, reason: str, seeds: int | None,
              seed: int, workers: int | None, read: Callable[[str], Any],
              progress: bool) -> Equilibria:
    from pokerdyn.solvers.symbolic.learned import equilibrium_set as es
    from pokerdyn.solvers.symbolic.learned import pot_sweep as ps

    es.check_size(game)
    if pots:
        from pokerdyn.solvers.symbolic.model.pot_values import pot_range

        if "P" not in game.param_names:
            raise GameError(f"--pots: game {game.name!r} has no pot parameter P")
        a, b = pot_range(pots, closed=True, rational=True, check=read)
        res = ps.pot_sweep(game, a, b, seeds=seeds or 4, seed=seed, workers=workers,
                           progress=progress)
        return _finish(Equilibria(game, "supports", reason, ps.sweep_records(res), found=res,
                                  pots=(a, b)))
    if value is None:
        value = sp.sympify(game.defaults.get("P")) if "P" in game.param_names else None
    res = es.equilibrium_set(game, value, seeds=seeds or 20, seed=seed, workers=workers)
    rec = es.set_record(res)
    from pokerdyn.solvers.symbolic.families.family_view import add_payoffs_in_free
    add_payoffs_in_free(game, value, rec["families"])
    return _finish(Equilibria(game, "supports", reason, rec, found=res, pot=value))


def _finish(eq: Equilibria) -> Equilibria:
    """The record completed: ``strategy_by_infoset`` in every family, ``method`` (kept
    where the algorithm's record names it already) and ``method_reason``."""
    from pokerdyn.solvers.symbolic.families.family_view import add_by_infoset

    rec = eq.record
    fams = [f for pc in rec.get("pieces", []) for f in pc.get("families", [])
            if isinstance(f, dict)] + list(rec.get("families", []))
    add_by_infoset(eq.game, fams)
    rec.setdefault("method", eq.method)
    rec["method_reason"] = eq.reason
    return eq


__all__ = ["METHODS", "Choice", "Equilibria", "axis_applies", "case_search", "choose_method",
           "reduced", "solve_equilibria"]
