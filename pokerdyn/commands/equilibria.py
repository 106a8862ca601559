"""Equilibrium families of a game, piecewise in the pot size P (exact, sympy), or at one pot
(--pot).  JSON: {"game", "families": [{"p_interval", "strategy", "free", "constraints",
"payoffs"}]}; every string parses with sympy.sympify."""
from __future__ import annotations

from .common import emit_json, game_and_values


def add_arguments(p) -> None:
    p.add_argument("game")
    p.add_argument("--pot", default=None, help="pot size P (default: every P)")
    p.add_argument("--json", action="store_true", help="print JSON")


def families_json(game, pot=None) -> list[dict]:
    import sympy as sp

    from solvers.piecewise import equilibrium_pieces, solutions_at

    if pot is None:
        pieces = [(pc.p_set, pc.solutions) for pc in equilibrium_pieces(game)]
    else:
        v = sp.nsimplify(pot, rational=True)
        pieces = [(sp.FiniteSet(v), solutions_at(game, v))]
    out = []
    for pset, sols in pieces:
        for s in sols:
            out.append({"p_interval": str(pset),
                        "strategy": {k: str(v) for k, v in s.strategy},
                        "free": list(s.free),
                        "constraints": [str(c) for c in s.constraints],
                        "payoffs": [str(e) for e in s.payoffs]})
    return out


def run(args) -> int:
    game, values = game_and_values(args.game, args.pot)
    fams = families_json(game, args.pot)
    if args.json:
        emit_json({"game": game.name, "families": fams})
        return 0
    for f in fams:
        print(f"P in {f['p_interval']}: " + ", ".join(f"{k}={v}" for k, v in f["strategy"].items()))
        if f["constraints"]:
            print(f"    free {', '.join(f['free'])}: {'; '.join(f['constraints'])}")
        print(f"    payoffs: {', '.join(f['payoffs'])}")
    return 0
