"""Cross-check the exact equilibrium families against fictitious play: for each pot, FP
(alternating schedule) from random starts; per run the max-norm distance over the named
parameters from its average strategy to the nearest enumerated family (free parameters
optimised under the constraints) and its NashConv; per family the exact NashConv of a sample
point (must be 0).  Families are numbered from 1 in the table, as in `pokerdyn equilibria
GAME --pot P`; JSON indices are 0-based list positions.  A run farther than --tol from every
family, or a nonzero exact NashConv, is a failure: exit code 1."""
from __future__ import annotations

from pokerdyn.commands.common import (GAME_HELP, SEED_MAX, emit_json, game_and_values, parse_float, parse_int,
                                      parse_pot)


# FP runs about 10^5 iterations a second on these games: more than this is hours
MAX_FP_ITERATIONS = 10**9


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pots", default="1.5,2,3,5,6,9,12", help="comma-separated pot sizes")
    p.add_argument("--starts", default="10", help="random starts per pot (default 10)")
    p.add_argument("--iterations", default="20000", help="FP iterations per run (default 20000)")
    p.add_argument("--seed", default="0", help="seed of the random starts (default 0)")
    p.add_argument("--tol", default="1e-2", help="distance counted as a failure (default 1e-2)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.games import GameError
    from pokerdyn.solvers.crosscheck import crosscheck


    starts = parse_int(args.starts, "starts", low=1, high=10_000)
    iters = parse_int(args.iterations, "iterations", low=1, high=10_000_000)
    seed = parse_int(args.seed, "seed", low=0, high=SEED_MAX)
    tol = parse_float(args.tol, "tol", low=0, low_open=True)
    texts = [t.strip() for t in args.pots.split(",") if t.strip()]
    if not texts:
        raise GameError(f"--pots={args.pots!r} names no pot size")
    total = len(texts) * starts * iters
    if total > MAX_FP_ITERATIONS and not getattr(args, "force", False):
        raise GameError(f"{len(texts)} pots x starts={starts} x iterations={iters} is "
                        f"{total:,} FP iterations; allowed: at most {MAX_FP_ITERATIONS:,} "
                        "(hours of work; --force runs it anyway)")
    game, _ = game_and_values(args.game, texts[0])  # validates the game and the first pot
    pots = [parse_pot(t, game) for t in texts]  # exact: 2.5 is 5/2, (5+sqrt(73))/2 allowed
    result = crosscheck(game, pots, starts=starts, iterations=iters, seed=seed)
    failures = sum(r.distance > tol for pc in result for r in pc.runs)
    failures += sum(f["nash_conv_exact"] != 0 for pc in result for f in pc.families)
    if args.json:
        emit_json({"game": game.name, "distance": "max-norm over named parameters",
                   "pots": [{"pot": pc.pot,
                             "runs": [{"start": r.start, "distance": r.distance,
                                       "nash_conv": r.nash_conv,
                                       "nearest_family": r.nearest_family,
                                       "failure": r.distance > tol} for r in pc.runs],
                             "families": [{"index": f["index"],
                                           "sample": {k: str(v) for k, v in f["sample"].items()},
                                           "nash_conv_exact": str(f["nash_conv_exact"])}
                                          for f in pc.families]} for pc in result],
                   "failures": failures})
        return 1 if failures else 0
    print(f"{game.name}: FP ({iters} iterations, alternating) from {starts} random starts "
          f"(seed {seed}); distance = max-norm over named parameters to the nearest family")
    print(f"{'pot':>6} {'families':>8} {'exact NashConv':>15} {'max dist':>10} "
          f"{'max FP NashConv':>16} {'family:runs':>16}")
    for pc in result:
        nc = ",".join(str(f["nash_conv_exact"]) for f in pc.families)
        near: dict[int, int] = {}
        for r in pc.runs:
            near[r.nearest_family] = near.get(r.nearest_family, 0) + 1
        far = [r.start for r in pc.runs if r.distance > tol]
        print(f"{pc.pot:>6g} {len(pc.families):>8} {nc:>15} "
              f"{max(r.distance for r in pc.runs):>10.2e} "
              f"{max(r.nash_conv for r in pc.runs):>16.2e} "
              f"{' '.join(f'{k + 1}:{v}' for k, v in sorted(near.items())):>16}"
              + (f"  FAILURE: starts {far} far from every family" if far else ""))
    print("all runs near an enumerated family; every sample exact NashConv 0" if not failures
          else f"{failures} failure(s)")
    return 1 if failures else 0
