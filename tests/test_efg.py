"""Gambit .efg export: one line per node in preorder, payoffs and probabilities intact."""
import re

import numpy as np
import pytest

from pokerdyn.games import compile_game, get_game
from pokerdyn.games.io.efg import to_efg
from pokerdyn.games.catalog.river import river


@pytest.mark.parametrize("cg", [compile_game(get_game("kuhn")), compile_game(river(max_bets=2))])
def test_efg_round_trip_of_the_numbers(cg):
    lines = to_efg(cg).splitlines()
    assert lines[0].startswith('EFG 2 R "') and '"Player 1" "Player 2"' in lines[0]
    body = lines[2:]
    assert len(body) == cg.n_nodes
    kinds = [ln[0] for ln in body]
    assert kinds.count("t") == cg.payoffs.shape[0] and kinds.count("c") == 1
    # chance probabilities sum to 1; terminal payoffs are the compiled ones (zero-sum here)
    probs = [float(x) for x in re.findall(r'"[A-Z]+" ([0-9.e-]+)', body[0])]
    assert sum(probs) == pytest.approx(1.0)
    pays = np.array([[float(v) for v in re.search(r"\{ (.*) \}", ln).group(1).split(",")]
                     for ln in body if ln[0] == "t"])
    assert np.allclose(np.sort(pays[:, 0]), np.sort(cg.payoffs[:, 0]))
    # each player's information sets are numbered 1..n
    for p in (1, 2):
        nums = {int(m.group(1)) for m in re.finditer(rf'^p "" {p} (\d+) ', "\n".join(body),
                                                     re.M)}
        assert nums == set(range(1, int((cg.infoset_player == p - 1).sum()) + 1))
