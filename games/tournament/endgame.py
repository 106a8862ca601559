"""Blind-versus-blind endgames of the jam/fold tournament game: every seat before the small
blind has folded, the small blind jams or folds, the big blind calls or folds.

A two-player game (player 1 = small blind, player 2 = big blind) on the *whole* table: the
folded seats keep their stacks minus what they posted (antes stay in the pot), and each
player's payoff is the ICM equity change of its own seat computed on the full stack vector
(:func:`games.tournament.jamfold._terminal_values`, the same settlement as the N-seat game).
With ICM payouts and three or more seats the two payoffs do not sum to a constant: the
folded seats' equity moves with the blinds' stacks (a bust moves them up a place), so the
endgame is general-sum (Ganzfried & Sandholm note this for the 3-player jam/fold game).
With chip payoffs (``payouts=None``) and no ante it is zero-sum.

Tree: one chance node with the ``K^2`` class pairs (probabilities ``model.pair_prob``), then
per deal the small blind's decision ``f``/``p``, and after ``p`` the big blind's ``f``/``c``.
Information sets ``P1:<class>|`` (small blind) and ``P2:<class>|p`` (big blind).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.errors import GameError
from pokerdyn.games.tournament.icm import check_payouts
from pokerdyn.games.tournament.jamfold import _terminal_values, table
from pokerdyn.games.tournament.showdown import HandModel
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL, Game, Infoset, infoset_label


def blind_vs_blind(model: HandModel, stacks: ArrayLike, blinds: Sequence[float] = (0.5, 1.0),
                   ante: float = 0.0, button: int = 0, payouts: ArrayLike | None = None,
                   name: str = "bvb") -> Game:
    """The blind-versus-blind endgame of the module docstring.

    Parameters
    ----------
    model : HandModel
        Hand classes with heads-up pair probabilities and equities (e.g. the 169 classes).
    stacks : array_like (N,)
        Every seat's chips before posting, 3 <= N <= 6 (heads-up there is no "others
        folded": use :func:`~games.tournament.jamfold.jamfold_game`).
    blinds, ante, button :
        As :func:`~games.tournament.jamfold.jamfold_game`; the blinds sit after the button.
    payouts : array_like, optional
        ICM payouts of the whole table; None: chip payoffs.
    """
    t = table(stacks, blinds, ante, button)
    n = t.stacks.size
    if n < 3:
        raise GameError(f"{n} seats: a blind-versus-blind endgame needs 3 to 6 seats (others "
                        "who folded); heads-up use jamfold_game")
    pay = None if payouts is None else check_payouts(payouts, n)
    K = len(model.names)
    D = K * K
    deals = np.indices((K, K)).reshape(2, D).T                     # (D, 2): SB class, BB class
    two = [t.sb, t.bb]

    def values(seats_in: Sequence[int]):
        inn = np.zeros(n, dtype=bool)
        inn[list(seats_in)] = True
        vals = _terminal_values(t, inn, pay)[:, two]               # (W, 2)
        if len(seats_in) == 1:
            return np.broadcast_to(vals[0], (D, 2))
        return model.outcome_probs(deals) @ vals

    # nodes: root, D small-blind decisions, then per deal [SB fold, BB decision], then per
    # deal [BB fold, call]
    ar = np.arange(D)
    kind = np.concatenate([[CHANCE], np.full(D, DECISION), np.tile([TERMINAL, DECISION], D),
                           np.tile([TERMINAL, TERMINAL], D)]).astype(np.int8)
    sb_node, l2 = 1 + ar, 1 + D + 2 * ar
    parent = np.concatenate([[-1], np.zeros(D, dtype=np.int64), np.repeat(sb_node, 2),
                             np.repeat(l2 + 1, 2)])
    edge = np.concatenate([[0], ar, np.tile([0, 1], D), np.tile([0, 1], D)])
    player = np.full(kind.size, -1, dtype=np.int8)
    infoset = np.full(kind.size, -1, dtype=np.int32)
    player[sb_node], infoset[sb_node] = 0, deals[:, 0]
    player[l2 + 1], infoset[l2 + 1] = 1, K + deals[:, 1]
    prob = np.ones(kind.size)
    prob[sb_node] = np.asarray(model.pair_prob, dtype=np.float64).ravel()
    infosets = [Infoset(infoset_label(0, c, ""), 0, ("f", "p")) for c in model.names] + \
               [Infoset(infoset_label(1, c, "p"), 1, ("f", "c")) for c in model.names]
    # terminals in node order: per deal SB fold (level 2), then per deal BB fold, call
    fold_sb, fold_bb, call = values([t.bb]), values([t.sb]), values(two)
    pays = np.concatenate([fold_sb, np.stack([fold_bb, call], axis=1).reshape(2 * D, 2)])
    desc = (f"blind vs blind, stacks {t.stacks.tolist()}, blinds {list(blinds)}, ante {ante:g}"
            + ("" if pay is None else f", ICM payouts {pay.tolist()}"))
    return game_from_arrays(name, 2, kind, parent, edge, player, infoset, infosets, prob, pays,
                            description=desc)


MAX_CLASSES = 169       # buckets=169: the exact 169-class preflop model


def _numbers(name: str, value, allow_empty: bool = False) -> list[float]:
    """A spec list of numbers (ints, decimals, rationals a/b) as floats; GameError else."""
    items = value if isinstance(value, (tuple, list)) else (value,)
    try:
        out = [float(v) for v in items if not isinstance(v, (bool, str))]
    except (TypeError, ValueError):
        out = []
    if len(out) != len(items) or (not out and not allow_empty):
        raise GameError(f"{name}={value!r} is not a list of numbers, e.g. {name}=[10,6,4]")
    return out


def blind_vs_blind_game(stacks=(10, 6, 4), blinds=(1 / 2, 1), ante=0, button: int = 0,
                        payouts="icm", buckets: int = 6) -> Game:
    """The registry's ``blind-vs-blind`` game: :func:`blind_vs_blind` on the hand model of
    ``buckets`` equity buckets of the 169 preflop classes
    (:func:`games.tournament.buckets.bucket_model`; ``buckets=169``: the exact 169-class model,
    :func:`games.tournament.hands.preflop_model`).  ``payouts``: a list of prize fractions,
    ``icm`` (default: 50/30/20, cut to the seats), or ``chips`` (chip payoffs)."""
    st = _numbers("stacks", stacks)
    bl = _numbers("blinds", blinds)
    an = _numbers("ante", ante)
    if len(an) != 1:
        raise GameError(f"ante={ante!r} is not a number")
    if isinstance(button, bool) or not isinstance(button, int):
        raise GameError(f"button={button!r} is not a seat index in [0, {len(st) - 1}]")
    if isinstance(buckets, bool) or not isinstance(buckets, int) or \
            not 2 <= buckets <= MAX_CLASSES:
        raise GameError(f"buckets={buckets!r} is outside [2, {MAX_CLASSES}] "
                        f"({MAX_CLASSES}: the exact preflop classes)")
    if payouts == "chips":
        pay = None
    elif payouts == "icm":
        pay = [0.5, 0.3, 0.2][:len(st)]
    elif isinstance(payouts, str):
        raise GameError(f"payouts={payouts!r}; allowed: icm, chips or a list of prize "
                        "fractions, e.g. payouts=[0.5,0.3,0.2]")
    else:
        pay = _numbers("payouts", payouts)
    if buckets == MAX_CLASSES:
        from pokerdyn.games.tournament.hands import preflop_model
        model = preflop_model()
    else:
        from pokerdyn.games.tournament.buckets import bucket_model
        # the 3-way Monte Carlo of the bucket model is unused by a 2-player showdown
        model = bucket_model(buckets, samples=1, seed=0).model
    return blind_vs_blind(model, st, bl, an[0], button, pay, name="blind-vs-blind")


__all__ = ["blind_vs_blind", "blind_vs_blind_game"]
