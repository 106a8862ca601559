"""Estimation of the logit precision (solvers.qre.estimate, `pokerdyn qre-fit`): the
profile-likelihood interval covers the true lambda in >= 90 of 100 seeded replications of
10^4 hands (issue 15), the maximum of the expected counts is the true lambda, and the count
files of `pokerdyn simulate --counts-out` round-trip."""
import json

import numpy as np
import pytest

from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.solvers.qre import qre_profiles, trace_branch
from pokerdyn.solvers.qre.estimate import (counts_from_json, counts_from_terminals, counts_to_json,
                                  fit_lambda, sample_counts, terminal_probabilities)
from pokerdyn.cli import main


@pytest.fixture(scope="module")
def kuhn():
    return compile_game(get_game("kuhn"))


def test_interval_covers_the_true_lambda_in_90_of_100_replications(kuhn):
    lam = 2.0
    sigma = qre_profiles(kuhn, [lam])[0]
    branch = trace_branch(kuhn, tol=0.0, max_lambda=1e4)[0]
    rng = np.random.default_rng(2026)
    fits = [fit_lambda(kuhn, sample_counts(kuhn, sigma, 10**4, rng), branch=branch)
            for _ in range(100)]
    covered = sum(f.interval[0] <= lam <= f.interval[1] for f in fits)
    assert covered >= 90
    assert abs(np.mean([f.lam for f in fits]) - lam) < 0.02        # sd of one fit ~ 0.04


@pytest.mark.parametrize("name,vals,lam", [("kuhn", {}, 7.0), ("skp", {"P": 9.0}, 1.5)])
def test_expected_counts_give_back_the_true_lambda(name, vals, lam):
    """With counts proportional to the QRE's own action frequencies the likelihood is the
    cross-entropy, maximal exactly at the true profile (Gibbs' inequality)."""
    cg = compile_game(get_game(name), vals)
    sigma = qre_profiles(cg, [lam])[0]
    C = counts_from_terminals(cg, 1e5 * terminal_probabilities(cg, sigma))
    fit = fit_lambda(cg, C, max_lambda=1e4)
    assert abs(fit.lam - lam) < 1e-5 * lam
    assert fit.interval[0] < lam < fit.interval[1]


def test_play_of_a_strict_equilibrium_gives_an_unbounded_lambda():
    """SKP at P = 3: the branch ends at a pure equilibrium (Billingham Solution 1), so counts
    on its actions only make the likelihood rise to 0 as lam -> inf."""
    cg = compile_game(get_game("skp"), {"P": 3.0})
    pure = np.round(qre_profiles(cg, [1e3])[0])
    fit = fit_lambda(cg, 100.0 * pure * cg.legal)
    assert fit.lam == np.inf and fit.interval[1] == np.inf and 0 < fit.interval[0] < 1e3
    assert fit.to_json()["lambda"] is None and -1e-3 < fit.log_likelihood <= 0


def test_counts_from_terminals_count_each_decision_once(kuhn):
    rng = np.random.default_rng(0)
    C = sample_counts(kuhn, qre_profiles(kuhn, [1.0])[0], 1000, rng)
    roots = [i for i, lab in enumerate(kuhn.infoset_labels) if lab.endswith("|")]
    assert C[roots].sum() == 1000                          # player 1 acts first in every hand
    assert np.all(C[~kuhn.legal] == 0)
    assert np.isclose(terminal_probabilities(kuhn, kuhn.legal / 2.0).sum(), 1.0)


def test_counts_json_forms_and_bad_input(kuhn):
    by_name = counts_from_json(kuhn, {"P1:K|kb": {"c": 12, "f": 3}, "P2:J|b": [4, 1]})
    I = kuhn.infoset_labels.index("P1:K|kb")
    assert by_name[I].tolist() == [3.0, 12.0]
    assert counts_to_json(kuhn, by_name) == {"P2:J|b": {"f": 4, "c": 1},
                                             "P1:K|kb": {"f": 3, "c": 12}}
    for bad, msg in [({"P9:X|": {"c": 1}}, "unknown information set 'P9:X\\|'"),
                     ({"P1:K|kb": {"c": -1}}, "count -1 at"),
                     ({"P1:K|kb": {"c": 0}}, "all counts are zero"),
                     ({"P1:K|kb": {"z": 1}}, "unknown action 'z'"),
                     ({"P1:K|kb": [1]}, "needs 2 counts"),
                     ([1, 2], "JSON object")]:
        with pytest.raises(GameError, match=msg):
            counts_from_json(kuhn, bad)


def test_cli_qre_fit_and_simulate_counts_out(tmp_path, capsys):
    path = tmp_path / "counts.json"
    assert main(["simulate", "skp", "--pot", "9", "--rounds", "20000", "--seed", "3",
                 "--counts-out", str(path), "--json"]) == 0
    capsys.readouterr()
    data = json.loads(path.read_text())
    assert sum(data["P3:J|"].values()) + sum(data["P3:A|"].values()) == 20000  # deals=12
    assert main(["qre-fit", "skp", "--pot", "9", "--counts", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"lambda", "interval", "log_likelihood"} <= set(out)
    assert out["interval"][0] <= out["lambda"] <= out["interval"][1]


@pytest.mark.parametrize("content,msg", [
    ({"P9:X|": {"c": 1}}, "unknown information set"),
    ({"P1:K|kb": {"c": -2}}, "outside the allowed range"),
    ({"P1:K|kb": {"c": 0, "f": 0}}, "all counts are zero"),
])
def test_cli_qre_fit_bad_counts_one_line_exit_2(tmp_path, capsys, content, msg):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(content))
    assert main(["qre-fit", "kuhn", "--counts", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert msg in err and "\n" not in err
