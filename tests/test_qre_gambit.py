"""The limits of the principal logit QRE branches against pygambit's ``logit_solve`` end
points on this package's exact .efg exports (Turocy 2005's method, Gambit's implementation):
equal within 1e-5 per action (pygambit stops at a regret of about 1e-8, so its end point is
itself within about that of the limit)."""
from __future__ import annotations

import pytest

from pokerdyn.games import compile_game, get_game
from pokerdyn.games.io.efg import to_efg_exact
from pokerdyn.solvers.qre import branch_limit, qre_branch

gbt = pytest.importorskip("pygambit")


# kuhn and kuhn3-third (P = 6) agree too (to 1.4e-7 and 5.5e-7: benchmarks/bench_qre.py);
# pygambit needs 5-30 s for them, so the test suite checks skp only
@pytest.mark.parametrize("name,values", [("skp", {"P": 9})])
def test_branch_limit_equals_pygambit_logit_solve(name, values, tmp_path):
    cg = compile_game(get_game(name), values)
    lim = branch_limit(cg, qre_branch(cg))
    f = tmp_path / "g.efg"
    f.write_text(to_efg_exact(get_game(name), values))
    g = gbt.read_efg(str(f))
    eq = gbt.nash.logit_solve(g).equilibria[0]
    labels = cg.infoset_labels
    n = 0
    for p in g.players:
        for i in p.infosets:
            I = labels.index(i.label)
            for k, a in enumerate(i.actions):
                assert abs(float(eq[a]) - lim.strategy[I, k]) < 1e-5, (i.label, a.label)
                n += 1
    assert n == int(cg.legal.sum()) and lim.certified
