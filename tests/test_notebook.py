"""What a notebook user meets (issue 35, point 10): in a fresh interpreter that has chosen
its own matplotlib backend (as Jupyter does), importing every module of pokerdyn leaves the
backend alone, and the objects a notebook shows -- games, compiled games, the front door's
results -- have reprs of at most about 2,000 characters (a Game's was 34,815, a Trajectory's
30,300), the tables an HTML form."""
from __future__ import annotations

import json
import os
import subprocess
import sys

CELLS = r'''
import importlib, json, pkgutil
import matplotlib
matplotlib.use("svg")               # the notebook's own backend (Jupyter: inline)
backend = matplotlib.get_backend()
import pokerdyn as pd
for mod in pkgutil.walk_packages(pd.__path__, "pokerdyn."):
    if not mod.name.endswith("__main__"):   # running the command line is not importing
        importlib.import_module(mod.name)
out = {"backend_before": backend, "backend_after": matplotlib.get_backend()}
from pokerdyn.games import compile_game
shown = {
    "game": lambda: pd.game("kuhn3"),
    "compiled": lambda: compile_game(pd.game("kuhn3")),
    "solve": lambda: pd.solve("skp", "cfr+", pot=9, iterations=200),
    "payoffs": lambda: pd.payoffs("skp"),
    "equilibria": lambda: pd.equilibria("skp", pot=9),
    "qre": lambda: pd.qre("skp", pot=9),
    "icm": lambda: pd.icm("50,30,20", "0.5,0.3,0.2"),
    "ode": lambda: pd.ode("skp", pot=9, t_end=20),
    "simulate": lambda: pd.simulate("skp", pot=9, rounds=20000, points=50),
    "catalog": lambda: pd.catalog(),
}
out["repr"], out["html"] = {}, {}
for name, make in shown.items():
    obj = make()
    out["repr"][name] = len(repr(obj))
    html = getattr(obj, "_repr_html_", None)
    out["html"][name] = len(html()) if html else None
print(json.dumps(out))
'''


def test_backend_kept_and_reprs_short(tmp_path):
    env = {**os.environ, "PYTHONSAFEPATH": "1"}
    env.pop("MPLBACKEND", None)
    proc = subprocess.run([sys.executable, "-c", CELLS], capture_output=True, text=True,
                          cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["backend_after"] == out["backend_before"] == "svg"
    long = {k: n for k, n in out["repr"].items() if n > 2000}
    assert not long, f"reprs longer than 2,000 characters: {long}"
    assert all(n > 0 for n in out["repr"].values())
    tables = ("solve", "icm", "catalog")
    assert all(out["html"][k] and out["html"][k] > 0 for k in tables), out["html"]
