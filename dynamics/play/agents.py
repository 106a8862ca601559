"""Adaptive players for agent-based repeated play (:func:`dynamics.play.table.play_table`).

One interface, :class:`AdaptivePlayer`: at the table a player sits in a seat; each round it
observes its observation class of the hand (:mod:`dynamics.play.observation`), adds it to a
window of its last ``L`` hands *in that memory slot* and returns its new frequencies for
the parameters of its seat.  A player states

* ``slot(seat, seating)``: the memory slot it uses when sitting in ``seat`` with the agents
  seated as ``seating`` (``seating[s]`` = agent index in seat s).  Default: the seat, so an
  agent has its own frequencies, estimates and window for every seat (seat rotation);
* ``spec(game, slot) -> SeatSpec``: rule, adaptation rate, window, initial frequencies,
  prior estimates and estimator for that slot.

The rules themselves are data (a rule code run by the numba kernel
:mod:`dynamics.play._agent_kernel`), so millions of rounds stay fast:

* :class:`FixedPlayer`: never moves (e.g. an equilibrium; :meth:`FixedPlayer.at_point`);
* :class:`GradientLearner`: Billingham (27)-(29), ``x += k g(estimates)`` clipped to [0, 1],
  with the paper's ratio estimators ("unbiased", "paper", "corrected"; SKP) or maximum likelihood ("ml",
  any deal-first game);
* :class:`FictitiousLearner`: moves towards the best response to its window's estimates,
  step ``max(1 / (n + 1), k)`` (the running average of best responses, floored at ``k`` so
  it keeps tracking a moving opponent);
* :class:`AllyPlayer`: a fixed player whose strategy also depends on where its partner sits
  (Billingham sec. 2.1 alliances).

Per-seat parameters: ``k``, ``L`` may be one value or one per seat; ``init`` and ``prior``
map parameter names to values (a seat uses the entries of the parameters it owns / does not
own; missing entries default to ``default_init``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Mapping, Protocol, Sequence, runtime_checkable

from pokerdyn.games import Game, GameError

from pokerdyn.dynamics.play._agent_kernel import FICTITIOUS, FIXED, GRADIENT
from pokerdyn.dynamics.play.estimators import check_estimator
from pokerdyn.dynamics.skp_points import skp_point

RULES = {"fixed": FIXED, "gradient": GRADIENT, "fictitious": FICTITIOUS}


@dataclass(frozen=True)
class SeatSpec:
    """What one memory slot of a player does (validated)."""

    rule: int
    k: float
    L: int
    init: Mapping[str, float]  # own parameters of the seat -> initial frequency
    prior: Mapping[str, float]  # other parameters -> initial estimate (missing: table default)
    estimator: str


@runtime_checkable
class AdaptivePlayer(Protocol):
    name: str

    def slot(self, seat: int, seating: Sequence[int]) -> Hashable: ...

    def spec(self, game: Game, slot: Hashable) -> SeatSpec: ...


def _for_seat(value, seat: int, what: str, n: int = 3):
    if isinstance(value, (tuple, list)):
        if len(value) != n:
            raise GameError(f"{what} needs 1 or {n} values (one per seat), got {len(value)}")
        return value[seat]
    return value


def _check_freqs(values: Mapping[str, object], game: Game, what: str) -> dict[str, object]:
    names = {p.name for p in game.named}
    out = {}
    for key, v in values.items():
        if key not in names:
            raise GameError(f"{what}: unknown parameter {key!r}; allowed: "
                            f"{', '.join(sorted(names))}")
        try:
            ok = 0.0 <= float(v) <= 1.0
        except (TypeError, ValueError):
            raise GameError(f"{what} {key}={v!r} is not a number") from None
        if not ok:
            raise GameError(f"{what} {key}={v} is outside the allowed range [0, 1]")
        out[key] = v  # kept as given (exact Rationals stay exact for exact_payoffs)
    return out


@dataclass(frozen=True)
class _Player:
    name: str = "player"
    k: float | Sequence[float] = 0.001
    L: int | Sequence[int] = 6
    init: Mapping[str, float] = field(default_factory=dict)
    prior: Mapping[str, float] = field(default_factory=dict)
    estimator: str = "unbiased"
    default_init: float = 0.5
    rule = FIXED

    def slot(self, seat: int, seating: Sequence[int]) -> Hashable:
        return seat

    def _seat_of(self, slot: Hashable) -> int:
        return slot if isinstance(slot, int) else slot[0]

    def _strategy(self, game: Game, slot: Hashable) -> Mapping[str, float]:
        return self.init

    def spec(self, game: Game, slot: Hashable) -> SeatSpec:
        seat = self._seat_of(slot)
        n = game.n_players
        k = float(_for_seat(self.k, seat, f"{self.name}: k", n))
        L = _for_seat(self.L, seat, f"{self.name}: L", n)
        if not (k >= 0.0 and k < float("inf")):
            raise GameError(f"{self.name}: k={k} is outside the allowed range [0, inf)")
        if int(L) != L or L < 1:
            raise GameError(f"{self.name}: L={L} is outside the allowed range [1, inf) "
                            f"(an integer)")
        try:
            check_estimator(self.estimator)
        except GameError as exc:
            raise GameError(f"{self.name}: {exc}") from None
        own = [p.name for p in game.named if game.owner(p.name) == seat]
        strat = _check_freqs(self._strategy(game, slot), game, f"{self.name}: init")
        prior = _check_freqs(self.prior, game, f"{self.name}: prior")
        init = {nm: strat.get(nm, self.default_init) for nm in own}
        return SeatSpec(self.rule, k, int(L), init,
                        {nm: v for nm, v in prior.items() if nm not in own}, self.estimator)


@dataclass(frozen=True)
class FixedPlayer(_Player):
    """Plays ``init`` (a full or partial profile by parameter name) and never moves."""

    name: str = "fixed"
    rule = FIXED

    @classmethod
    def at_point(cls, point: str, pot: float, name: str | None = None) -> "FixedPlayer":
        """A fixed SKP player at Billingham's S1, S2 or S3 (eqs. (12)-(14))."""
        return cls(name=name or point, init=skp_point(point, pot))


@dataclass(frozen=True)
class GradientLearner(_Player):
    """Billingham's estimator-gradient learner (27)-(29) with rate ``k`` and window ``L``."""

    name: str = "gradient"
    rule = GRADIENT


@dataclass(frozen=True)
class FictitiousLearner(_Player):
    """Best response to the window's estimates, averaged over time (step >= ``k``)."""

    name: str = "fictitious"
    k: float | Sequence[float] = 0.0
    rule = FICTITIOUS


@dataclass(frozen=True)
class AllyPlayer(_Player):
    """A fixed player in an alliance with agent ``partner`` (index at the table): in seat s
    with the partner in seat t it plays ``when_partner[(s, t)]`` (over ``init``)."""

    name: str = "ally"
    partner: int = 0
    when_partner: Mapping[tuple[int, int], Mapping[str, float]] = field(default_factory=dict)
    rule = FIXED

    def slot(self, seat: int, seating: Sequence[int]) -> Hashable:
        if self.partner not in seating:
            raise GameError(f"{self.name}: partner {self.partner} is not at the table")
        return (seat, list(seating).index(self.partner))

    def _strategy(self, game: Game, slot: Hashable) -> Mapping[str, float]:
        return {**self.init, **self.when_partner.get(slot, {})}


__all__ = ["AdaptivePlayer", "AllyPlayer", "FictitiousLearner", "FixedPlayer",
           "GradientLearner", "RULES", "SeatSpec"]
