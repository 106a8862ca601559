"""Szafron, Gibson & Sturtevant, "A parameterized family of equilibrium profiles for
three-player Kuhn poker", AAMAS 2013 (pp. 247-254): their family as profiles of
:func:`games.catalog.kuhn.kuhn3` at P = 3 (ante 1), for comparison with the families that
:mod:`solvers.symbolic.learned` derives from the rules.

Transcribed from the University of Alberta reference player that plays the family
(D. Morrill, ``kuhn_3p_equilibrium_player``, 2013: its parameter checks restate the paper's
domains), in the paper's names: ``a_ij``, ``b_ij``, ``c_ij`` are the probabilities of the
aggressive action (bet, or call) of players 1, 2, 3 holding card ``i`` (1 = J ... 4 = A) in
situation ``j`` (player 1: 1 open, 2 after check-check-bet, 3 after check-bet-fold, 4 after
check-bet-call; player 2: 1 after a check, 2 facing player 1's bet, 3 after
check-check-bet-fold, 4 after check-check-bet-call; player 3: 1 after check-check, 2 after
check-bet, 3 after bet-fold, 4 after bet-call).  The free parameters are ``c11, b11, b21,
b23, b32, c33, c34``; every other probability is fixed or follows from them.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

R = Fraction
HALF = R(1, 2)


def admissible(c11, b11, b21, b23, b32, c33, c34) -> bool:
    """The domain of the family (three sub-families by ``c11``: 0, in (0, 1/2), 1/2)."""
    ps = [c11, b11, b21, b23, b32, c33, c34]
    if any(not 0 <= p <= 1 for p in ps):
        return False
    beta = max(b11, b21)
    if c11 > HALF:
        return False
    if c11 == 0:
        ok = b21 <= R(1, 4) and b11 <= b21
    elif c11 < HALF:
        ok = b11 <= R(1, 4) and b21 == b11 and (b11 <= R(1, 6) or c11 <= (2 - b11) / (3 + 4 * b11))
    else:
        ok = b11 <= R(1, 4) and b21 <= min(b11, HALF - 2 * b11)
    top = HALF + R(3, 4) * (b11 + b21) + beta / 4
    b23_max = max(R(0), (b11 - b21) / (2 * (1 - b21)))
    return ok and b23 <= b23_max and b32 <= top and HALF - b32 <= c33 <= top - b32


def profile(c11, b11, b21, b23, b32, c33, c34) -> dict[str, Any]:
    """The family member as named parameters of ``kuhn3`` (``x{player}_{card}_{history}_{b|c}``)."""
    beta = max(b11, b21)
    v: dict[str, Any] = {}
    for card in "JQKA":  # player 1 never opens; calls with A, and with K after k-b-f half the time
        v[f"x1_{card}_0_b"] = 0
        for h in ("kkb", "kbf", "kbc"):
            v[f"x1_{card}_{h}_c"] = 1 if card == "A" else 0
    v["x1_K_kbf_c"] = HALF
    b1 = {"J": b11, "Q": b21, "K": 0, "A": 2 * b11 + 2 * b21}
    for card in "JQKA":
        v[f"x2_{card}_k_b"] = b1[card]
        v[f"x2_{card}_b_c"] = 1 if card == "A" else 0
        v[f"x2_{card}_kkbf_c"] = 1 if card == "A" else 0
        v[f"x2_{card}_kkbc_c"] = 1 if card == "A" else 0
    v["x2_K_b_c"] = b32
    v["x2_Q_kkbf_c"] = b23
    v["x2_K_kkbf_c"] = HALF + (b11 + b21) / 2 + beta / 2 - b23 * (1 - b21)
    c1 = {"J": c11, "Q": HALF - c11, "K": 0, "A": 1}
    for card in "JQKA":
        v[f"x3_{card}_kk_b"] = c1[card]
        for h in ("kb", "bf", "bc"):
            v[f"x3_{card}_{h}_c"] = 1 if card == "A" else 0
    v["x3_K_bf_c"] = c33
    v["x3_K_bc_c"] = c34
    return v


def _on_grid(rng, low: Fraction, high: Fraction, den: int) -> Fraction | None:
    """A uniform point of the grid ``1/den`` in ``[low, high]`` (None when it has none)."""
    lo, hi = -((-low.numerator * den) // low.denominator), (high.numerator * den) // high.denominator
    return None if lo > hi else R(int(rng.integers(lo, hi + 1)), den)


def sample(rng, n: int, den: int = 48) -> list[tuple]:
    """``n`` admissible parameter tuples (a third in each sub-family by ``c11``): ``c11``,
    ``b11``, ``b21`` on the grid ``1/den`` (the b's quartered, as their domain is [0, 1/4]),
    then ``b23``, ``b32``, ``c33`` uniform on the grid points of the ranges the first ones
    leave them (``b23`` on ``1/(16 den)``), ``c34`` on ``1/den``; draws outside the domain
    are redrawn."""
    out = []
    while len(out) < n:
        sub = len(out) % 3
        c11 = R(0) if sub == 0 else HALF if sub == 1 else R(int(rng.integers(1, den // 2)), den)
        b11, b21 = (R(int(rng.integers(0, den + 1)), 4 * den) for _ in range(2))
        if sub == 2:
            b21 = b11
        top = HALF + R(3, 4) * (b11 + b21) + max(b11, b21) / 4
        b23 = _on_grid(rng, R(0), max(R(0), (b11 - b21) / (2 * (1 - b21))), 16 * den)
        b32 = _on_grid(rng, R(0), min(R(1), top), den)
        c33 = None if b32 is None else _on_grid(rng, max(R(0), HALF - b32),
                                                min(R(1), top - b32), den)
        t = (c11, b11, b21, b23, b32, c33, R(int(rng.integers(0, den + 1)), den))
        if None not in t and admissible(*t):
            out.append(t)
    return out
