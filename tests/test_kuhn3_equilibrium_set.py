"""The equilibrium set of 3-player Kuhn poker at P = 3 (kuhn3, 4 cards, ante 1), as recorded
from the support method (``pokerdyn equilibria kuhn3 --json``, figures/frontier/data), re-
certified exactly here, and compared with the published family of Szafron, Gibson &
Sturtevant, "A parameterized family of equilibrium profiles for three-player Kuhn poker",
AAMAS 2013 (figures.frontier.szafron)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from pokerdyn.figures.frontier import szafron
from pokerdyn.figures.frontier.kuhn3_family import recorded
from pokerdyn.games.catalog.kuhn import kuhn3
from pokerdyn.solvers.symbolic.learned.equilibrium_set import family_from_record
from pokerdyn.solvers.symbolic.model.sparse_gains import counterfactual_gains, exact_nash_conv_at, gain_system, iterated_dominance_at
from pokerdyn.solvers.symbolic.families.geometry import Numeric, distance

R = Fraction


@pytest.fixture(scope="module")
def system():
    return gain_system(kuhn3(), 3)


@pytest.fixture(scope="module")
def families():
    return [family_from_record(r) for r in recorded()]


def test_recorded_points_are_exact_equilibria(system, families):
    assert families
    for fam, pts in families:
        assert pts
        for q in pts[:2]:
            assert exact_nash_conv_at(system, q) == 0


def test_families_satisfy_the_equilibrium_conditions_identically(system, families):
    """Every indifference condition (case c) vanishes identically on its family (exactly at
    random rational values of the free parameters: a nonzero rational function would not),
    and every (a)/(b) gain has its case's sign at the certified points."""
    dom = iterated_dominance_at(kuhn3(), 3, "strict", system=system)
    gains = counterfactual_gains(system, dom.fixed)
    rng = np.random.default_rng(5)
    for fam, pts in families:
        free = [sp.Symbol(n, real=True) for n in fam.free]
        for _ in range(2):
            th = {x: sp.Rational(int(rng.integers(1, 97)), 97) for x in free}
            sub = {sp.Symbol(k, real=True): sp.sympify(v).xreplace(th) for k, v in fam.strategy}
            for c, k in zip(gains.conditions, fam.cases):
                if k == "c":
                    assert c.gradient.xreplace(sub) == 0, c.name
        q = {sp.Symbol(n, real=True): x for n, x in pts[0].items()}
        for c, k in zip(gains.conditions, fam.cases):
            v = c.gradient.xreplace(q)
            assert (v >= 0 if k == "a" else v <= 0 if k == "b" else v == 0), (c.name, v)


def test_szafron_family_members_are_exact_equilibria(system):
    """Szafron et al. (AAMAS 2013): every member of the family is an equilibrium; one step
    outside its domain (c11 = 1/2 with b11 = b21 = 1/4) is not: player 1 gains by betting A."""
    rng = np.random.default_rng(3)
    for t in szafron.sample(rng, 9):
        assert exact_nash_conv_at(system, szafron.profile(*t)) == 0, t
    out = (R(1, 2), R(1, 4), R(1, 4), R(0), R(3, 4), R(0), R(1, 3))
    assert not szafron.admissible(*out)
    assert exact_nash_conv_at(system, szafron.profile(*out)) == sp.Rational(1, 96)


def test_our_families_contain_szafrons(system, families):
    """Each sampled member of Szafron et al.'s family lies in one of the recorded families
    (max-norm distance below 1e-7 over every parameter)."""
    names = system.names
    nums = [Numeric(f, names) for f, _ in families]
    rng = np.random.default_rng(11)
    for t in szafron.sample(rng, 12):
        y = np.array([float(Fraction(szafron.profile(*t)[n])) for n in names])
        assert min(distance(num, y)[0] for num in nums) < 1e-7, t


def test_player_two_gets_minus_one_48th_and_one_and_three_trade(system, families):
    """On every family player 2's payoff is -1/48, while E1 (and E3 = 1/48 - E1) differ
    between members: the utility transfer of Szafron et al."""
    e1 = set()
    for fam, pts in families:
        for q in pts:
            vals = [sp.Rational(str(system.ring.domain.to_sympy(
                E.subs([(g, system.ring.domain.convert(sp.Rational(q[n])))
                        for g, n in zip(system.ring.gens, system.names)]).coeff(1))))
                for E in system.payoffs]
            assert vals[1] == sp.Rational(-1, 48)
            e1.add(vals[0])
    assert len(e1) > 1


def test_family_figure_renders_the_utility_transfer(tmp_path):
    from pokerdyn.figures.registry import load

    res = load("kuhn3_family").main(tmp_path, seed=0, quick=True)
    assert res.files[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    n = res.numbers
    assert n["families"] == 3
    lo, hi = n["E2_range"]  # player 2: -1/48 on every family
    assert abs(lo + 1 / 48) < 1e-12 and abs(hi + 1 / 48) < 1e-12
    assert n["E1_range"][1] - n["E1_range"][0] > 1e-3  # players 1 and 3 trade utility
