"""The package layout the design card fixes: imports point one way (CLI -> figures -> dynamics
-> solvers -> games) with no cycle between modules.  File and folder sizes are not tested: the
brief makes them serve readability, not a target ("where a concept needs a bigger file, keep
the concept whole"), and issue 35 found folder boundaries drawn to satisfy such a test."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("games", "solvers", "dynamics", "figures", "pokerdyn")


def _modules() -> dict[str, Path]:
    """Installed module name -> source file: the top folders games/ ... figures/ are
    ``pokerdyn.games`` ... ``pokerdyn.figures`` (setup.py), pokerdyn/ is ``pokerdyn``."""
    out = {}
    for top in LAYERS:
        for f in sorted((ROOT / top).rglob("*.py")):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            if top != "pokerdyn":
                parts.insert(0, "pokerdyn")
            out[".".join(parts)] = f
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every project module ``name`` imports, at module level or inside functions."""
    is_pkg = path.name == "__init__.py"
    pkg = name if is_pkg else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


@functools.cache
def _mods() -> dict:
    """The package's modules (parsed when a test first asks, not at collection)."""
    return _modules()


@functools.cache
def _graph() -> dict:
    return {m: _imports(m, p, set(_mods())) for m, p in _mods().items()}


def _layer(mod: str) -> int:
    parts = mod.split(".")
    return LAYERS.index(parts[1] if len(parts) > 1 and parts[1] in LAYERS else "pokerdyn")


def _folder(mod: str) -> str:
    """The package (folder) a module lives in; a package's own __init__ belongs to it."""
    return mod if _mods()[mod].name == "__init__.py" else mod.rpartition(".")[0]


def test_imports_point_one_way():
    bad = [f"{m} imports {t}" for m, ts in _graph().items() for t in ts if _layer(t) > _layer(m)]
    assert not bad, "imports against the direction CLI -> figures -> dynamics -> solvers -> games: " + "; ".join(bad)


def test_no_import_cycle_between_modules():
    # a package's __init__ re-exporting its own submodules is not a cycle of design
    def edges(m):
        return {t for t in _graph()[m] if not (t.startswith(m + ".") or m.startswith(t + ".")
                                            and _mods()[t].name == "__init__.py")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(edges(m)):
            if state.get(t) == 1:
                pytest.fail("import cycle: " + " -> ".join(stack[stack.index(t):] + [t]))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(_graph()):
        if m not in state:
            visit(m)


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` (as a path that returns to its start), or [] if none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state and (found := visit(t)):
                return found
        stack.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return []


def _folder_graph() -> dict[str, set[str]]:
    """Folder -> the folders its modules import, every edge counted: a package's imports of
    its own subfolders and a subfolder's imports of its parent's modules too (a package's
    ``__init__`` re-exports its parts by name, lazily, so it imports none of them)."""
    out: dict[str, set[str]] = {}
    for m, ts in _graph().items():
        a = _folder(m)
        for t in ts:
            b = _folder(t)
            if a != b:
                out.setdefault(a, set()).add(b)
    return out


def test_folders_point_one_way_and_have_no_cycle():
    """Folders as well as modules: the layer direction holds (the module test), and no two
    folders import each other, directly or round a ring."""
    bad = [f"{a} imports {b}" for a, bs in _folder_graph().items() for b in bs
           if _layer(b) > _layer(a)]
    assert not bad, "; ".join(bad)
    cycle = _cycle(_folder_graph())
    assert not cycle, "import cycle between folders: " + " -> ".join(cycle)


WING = "pokerdyn.solvers.symbolic"
# the exact wing's stage folders in pipeline order: each imports only earlier ones
STAGES = ("feasibility", "model", "algebra", "casesearch", "families", "axis", "certificates",
          "learned")


def _stage(mod: str) -> int | None:
    """Index in STAGES of the wing module's stage; None for the wing's own __init__/entry."""
    rest = mod[len(WING) + 1:].split(".") if mod != WING else []
    return STAGES.index(rest[0]) if len(rest) > 1 or rest and rest[0] in STAGES else None


def _stage_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for m, ts in graph.items():
        if not (m == WING or m.startswith(WING + ".")):
            continue
        rest = m[len(WING) + 1:].split(".") if m != WING else []
        if rest and rest[0] not in STAGES and rest != ["entry"]:
            bad.append(f"{m} is in no stage (the wing's folder holds only __init__ and entry)")
            continue
        for t in ts:
            if not t.startswith(WING + "."):
                continue
            if t == WING + ".entry" and m != WING:
                bad.append(f"{m} imports the entry point")
            elif _stage(m) is not None and _stage(t) is not None and _stage(t) > _stage(m):
                bad.append(f"{m} ({STAGES[_stage(m)]}) imports {t} ({STAGES[_stage(t)]})")
    return bad


def test_exact_wing_stages_import_only_earlier_stages():
    """solvers/symbolic is cut by pipeline stage (its __init__ docstring is the map): every
    module lives in a stage folder (or is the entry point), a stage imports only earlier
    stages, nothing imports the entry point, and no two of its folders import each other
    even counting edges between a folder and its subfolders."""
    bad = _stage_violations(_graph())
    assert not bad, "; ".join(bad)
    stages = {f"{WING}.{s}" for s in STAGES}
    assert {_folder(m) for m in _mods() if m.startswith(WING + ".")} <= stages | {WING}
    wing = {a: {b for b in bs if b == WING or b.startswith(WING + ".")}
            for a, bs in _folder_graph().items() if a == WING or a.startswith(WING + ".")}
    cycle = _cycle(wing)
    assert not cycle, "import cycle between the wing's folders: " + " -> ".join(cycle)


def test_the_stage_check_can_fail():
    g = {f"{WING}.model.payoffs": {f"{WING}.axis.piecewise"},
         f"{WING}.axis.piecewise": {f"{WING}.entry"}, f"{WING}.reduce": set()}
    bad = _stage_violations(g)
    assert len(bad) == 3 and "(model) imports" in bad[0] and "entry point" in bad[1], bad


def test_the_folder_check_can_fail():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}}) == []


def test_the_import_checks_can_fail():
    assert _imports("pokerdyn.games.tree", _mods()["pokerdyn.games.tree"], set(_mods())) >= {"pokerdyn.games._checks", "pokerdyn.games.errors"}
    assert _graph()["pokerdyn.solvers.symbolic.axis.piecewise"] >= {"pokerdyn.solvers.symbolic.families.reduction",
                                                   "pokerdyn.solvers.symbolic.casesearch.case_enumeration"}


def test_lazy_exports_stay_in_their_layer():
    """``solvers`` exports its names lazily (by module path strings, which the import graph
    does not see): every one of them lives in solvers and resolves."""
    from pokerdyn import solvers
    for name, mod in solvers._EXPORTS.items():
        assert mod.split(".")[:2] == ["pokerdyn", "solvers"] and mod in _mods(), (name, mod)
        assert callable(getattr(solvers, name)), name
