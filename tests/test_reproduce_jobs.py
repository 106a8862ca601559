"""`pokerdyn reproduce --jobs`: figures grouped by package run on worker processes and give
exactly the numbers and files of a run in one process (issue 11: reproduce --quick < 45 s)."""
import json

from pokerdyn.cli import main
from pokerdyn.figures.registry import FIGURES
from pokerdyn.api.reproduce import LONGEST, groups


def test_groups_follow_packages():
    """The four equilibria figures share their families in one process; registry order."""
    g = groups(["fp_convergence", "kuhn3_third_frequencies", "convergence_compare",
                "skp_solutions", "ode_fates"])
    assert g == [["fp_convergence", "convergence_compare"],
                 ["kuhn3_third_frequencies", "skp_solutions"], ["ode_fates"]]


def test_the_start_order_names_figure_packages():
    """Every package in the start order holds figures (a renamed package would silently
    drop to the end of the order), and each is listed once."""
    packages = {FIGURES[n].rsplit(".", 1)[0] for n in FIGURES}
    assert set(LONGEST) <= packages and len(set(LONGEST)) == len(LONGEST)


def test_two_processes_match_one(tmp_path, capsys):
    only = "river_strategy_tree,ode_manifold"
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        assert main(["reproduce", "--quick", "--only", only, "--jobs", jobs,
                     "--out", str(out)]) == 0
        assert f"({jobs} process(es))" in capsys.readouterr().out
        done = json.loads((out / "done.json").read_text())
        runs[jobs] = {n: (d["numbers"], d["files"], d["summary"]) for n, d in done.items()}
        assert sorted(p.name for p in out.iterdir()) == [
            "done.json", "ode_manifold.png", "report.md", "river_strategy_tree.png"]
    assert runs["1"] == runs["2"] and set(runs["1"]) == set(only.split(","))
