"""``pokerdyn equilibria GAME`` (no --pot) for games past the case search whose dominance-
reduced frequencies fit it (kuhn3-full-simplified: 36 named, 13 left): every equilibrium
piecewise in P over --pots A:B, from complete exact enumerations at rational pots
(solvers.symbolic.fullaxis).  Minutes: a progress bar per pot, and each pot's supports are
written to --state as they are found, so an interrupted run resumes there."""
from __future__ import annotations

import json
import os
from pathlib import Path

from pokerdyn.commands.common import (atomic_write_text, check_output_file, emit_json,
                                     read_json_file)

MAX_NAMED = 40  # dominance over more named frequencies takes too long for this path
ROUNDS = 3  # sweeps with --prove-complete: each takes in what the proof before found
START = ("5/2", "7/2", "9/2", "11/2", "6", "7", "8", "9", "10", "12", "15", "20")


def applies(game, args) -> bool:
    """Whether this path answers: no --pot, a pot parameter, at most MAX_NAMED frequencies."""
    return args.pot is None and "P" in game.param_names and len(game.named) <= MAX_NAMED


def run_axis(game, args) -> int:
    import sympy as sp
    from tqdm.auto import tqdm

    from pokerdyn.games import GameError
    from pokerdyn.solvers.symbolic.dominance import reduce_game
    from pokerdyn.solvers.symbolic.enumeration import MAX_PARAMETERS
    from pokerdyn.solvers.symbolic.fullaxis.sweep import sweep, sweep_record

    from pokerdyn.commands.exact.equilibrium_supports import run_supports

    low, high = _range(getattr(args, "pots", None) or "2:20")
    # the state files are checked before any work (a bad one failed after the first pot)
    state = Path(getattr(args, "state", None) or f".pokerdyn-{game.name}-axis.json")
    saved = read_state(str(state), getattr(args, "prove_complete", False))
    fixed = reduce_game(game)
    if len(game.named) - len(fixed) > MAX_PARAMETERS:
        return run_supports(game, args)
    done, undecided = saved["pots"], saved["undecided"]
    start = [s for s in START if low <= sp.Rational(s) <= high] or \
        [str(2 * low if high is sp.oo else (low + high) / 2)]
    # no tqdm monitor thread: a multi-threaded process may not fork the --workers
    # (solvers.symbolic.fullaxis.forked.can_fork) nor the pieces' pool
    tqdm.monitor_interval = 0
    extra = saved.setdefault("extra", [])  # supports of families the proof found
    for _ in range(ROUNDS):
        bar = tqdm(desc="pots enumerated", unit="pot", disable=args.json, initial=len(done))

        def step(pot: str) -> None:
            atomic_write_text(state, json.dumps(saved))
            bar.update(1)
            bar.set_postfix_str(f"P = {pot}")

        try:
            res = sweep(game, fixed, low, high, start=start, progress=step, done=done,
                        undecided=undecided, extra=extra,
                        workers=getattr(args, "workers", None) or os.cpu_count() or 1)
        finally:
            bar.close()
        rec = sweep_record(game, fixed, res, low, high)
        if not getattr(args, "prove_complete", False):
            break
        rec["completeness"] = _prove(game, fixed, low, high, res, state, args.json,
                                     getattr(args, "workers", None))
        more = sorted({n["support"] for n in rec["completeness"]["new"]} - set(extra))
        if not more:
            break
        # families between the enumerated pots that the sweep lacked: their supports go
        # into the sweep (kept in --state), and the proof is run again on its new pieces
        extra += more
        atomic_write_text(state, json.dumps(saved))
    if args.json:
        emit_json(rec)
        return 0
    if not rec["pieces"]:
        raise GameError(f"no equilibrium family found on {low} <= P <= {high}")
    for pc in rec["pieces"]:
        print(f"P in {pc['p_set']}: {len(pc['families'])} families")
        for k, fam in enumerate(pc["families"], 1):
            own = {n: v for n, v in fam["strategy"].items() if n not in rec["fixed"]}
            print(f"  family {k} (support {fam['support']}): "
                  + ", ".join(f"{n} = {v}" for n, v in own.items()))
            if fam["free"]:
                print(f"    free: {', '.join(fam['free'])}; constraints: "
                      + ", ".join(fam["constraints"]))
            print("    payoffs: " + ", ".join(f"E{i + 1} = {e}"
                                           for i, e in enumerate(fam["payoffs"])))
    for c in rec["coexistence"]:
        print(f"{c['count']} distinct equilibria coexist on P in {c['p_set']}")
    for u in rec["unresolved_supports"]:
        print(f"support {u['support']} (equilibria at P = {', '.join(u['pots'])}) has no "
              "family rational in P (not in the pieces above; README: the quadratic family "
              "F10 is one)")
    for u in rec["undecided"]:
        print(f"at P = {u['pot']} support {u['support']} is undecided: {u['reason']}")
    print(f"{len(rec['pots_enumerated'])} pots enumerated in {rec['seconds']} s"
          + ("" if rec["undecided"] else ", each completely"))
    if "completeness" in rec:
        print(completeness_line(rec["completeness"]))
    return 0


def _prove(game, fixed, low, high, res, state: Path, quiet: bool, workers: int | None) -> dict:
    """certify_complete with a progress bar; its leaves resume from STATE.complete.json and
    are shared among --workers processes (default 1)."""
    from tqdm.auto import tqdm

    from pokerdyn.solvers.symbolic.fullaxis.complete import certify_complete

    bars: dict = {}

    def step(stage: str, done: int, total: int) -> None:
        if stage not in bars:
            bars[stage] = tqdm(desc=f"proof: {stage}", total=total, disable=quiet)
        bars[stage].n = done
        bars[stage].refresh()

    try:
        return certify_complete(game, fixed, low, high, res, progress=step,
                                state=_proof_state(state), workers=workers or 1)
    finally:
        for b in bars.values():
            b.close()


STATE_FORM = ('a state file of this command: {"pots": {pot: [support, ...]}, "undecided": '
              '{pot: [[support, reason], ...]}, "extra": [support, ...]} (or a new file name)')


def read_state(text: str, prove: bool = False) -> dict:
    """The resume state of --state ``text``, checked before any work: the path is writable
    (missing folders are made on the first write) and an existing file holds a state this
    command wrote (STATE_FORM, or the pot -> supports of earlier versions), else GameError
    naming the file; ``{"pots": {}, "undecided": {}}`` for a new file.  ``prove``
    (--prove-complete): the proof's state file beside it is checked as well
    (:func:`read_proof_state`)."""
    import sympy as sp

    from pokerdyn.games import GameError

    path = check_output_file(text, "state")
    if prove:
        read_proof_state(_proof_state(path))
    if not path.exists():
        return {"pots": {}, "undecided": {}}
    data = read_json_file(path, "state")
    if isinstance(data, dict) and "pots" not in data:  # earlier versions: pot -> supports
        data = {"pots": data, "undecided": {}}

    def pot(k) -> bool:
        try:
            return sp.Rational(k) > 0
        except (TypeError, ValueError, SyntaxError, ZeroDivisionError):
            return False

    def supports(v) -> bool:
        return isinstance(v, list) and all(isinstance(c, str) for c in v)

    problem = (
        f"holds a JSON {type(data).__name__}" if not isinstance(data, dict) else
        "has keys other than pots, undecided and extra"
        if set(data) - {"pots", "undecided", "extra"} else
        "has no object of pots" if not isinstance(data["pots"], dict) else
        "has no object undecided" if not isinstance(data.get("undecided"), dict) else
        "has an extra that is not a list of supports"
        if not supports(data.get("extra", [])) else
        "has a key that is not a positive rational pot"
        if not all(pot(k) for k in (*data["pots"], *data["undecided"])) else
        "has pots whose supports are not lists of strings"
        if not all(supports(v) for v in data["pots"].values()) else
        "has undecided entries that are not lists of [support, reason]"
        if not all(isinstance(v, list) and all(isinstance(u, list) and len(u) == 2 and
                                               supports(u) for u in v)
                   for v in data["undecided"].values()) else None)
    if problem:
        raise GameError(f"state={text!r} {problem}; allowed: {STATE_FORM}")
    return data


def _proof_state(state: Path) -> Path:
    """The file of the completeness proof's resume state beside --state."""
    return state.with_name(state.name + ".complete.json")


# the keys of the proof's state (solvers.symbolic.fullaxis.complete.certify_complete)
PROOF_KEYS = {"range": list, "leaves": list, "critical": list, "next": int, "families": int,
              "new": list, "algebraic": list, "nonlinear": list, "undecided": list,
              "tasks": dict, "walk_seconds": (int, float), "checked": dict,
              "retried_split": bool, "empty": int}


def read_proof_state(path: Path) -> None:
    """Check the proof's state file beside --state before any work (GameError naming it):
    a JSON object whose keys have the types certify_complete writes."""
    from pokerdyn.games import GameError

    if not path.exists():
        return
    check_output_file(str(path), "state")
    data = read_json_file(path, "state")
    bad = [k for k, t in PROOF_KEYS.items() if isinstance(data, dict) and k in data
           and not (isinstance(data[k], t) and (t is bool or not isinstance(data[k], bool)))]
    if not isinstance(data, dict) or bad:
        what = f"a JSON {type(data).__name__}" if not isinstance(data, dict) else \
            f"{', '.join(bad)} of the wrong type"
        raise GameError(f"state={str(path)!r} holds {what}; allowed: the proof's state "
                        "file this command wrote beside --state (or delete it)")


def completeness_line(c: dict) -> str:
    """One line: what the proof with P symbolic found."""
    head = (f"proven complete on {c['p_min']} <= P <= {c['p_max']}" if c["complete"] else
            f"NOT proven complete on {c['p_min']} <= P <= {c['p_max']}")
    alg = f"; {len(c['algebraic'])} supports with irrational branches checked separately" \
        if c["algebraic"] else ""
    return (f"{head}: {c['leaves']} leaves with P symbolic, {len(c['exceptional_pots'])} "
            f"exceptional pots, {len(c['new'])} new families, {len(c['missing'])} missing at "
            f"pots, {len(c['open_pots'])} pots open, {len(c['nonlinear'])} leaves with "
            f"non-linear positive-dimensional blocks{alg} ({c['seconds']} s)")


INFINITE = ("oo", "inf", "infinity")  # B of --pots A:B for the unbounded range P >= A


def _range(text: str):
    import sympy as sp

    from pokerdyn.games import GameError
    from pokerdyn.solvers.symbolic.pot_values import exact_pot

    parts = text.split(":")
    if len(parts) != 2:
        raise GameError(f"--pots={text!r} is not a range A:B (two numbers, A < B; B may be "
                        "oo)")
    a = exact_pot(parts[0])
    b = sp.oo if parts[1].strip().lower() in INFINITE else exact_pot(parts[1])
    if not a < b:
        raise GameError(f"--pots={text} is an empty or reversed range; give A:B with A < B")
    return a, b
