"""The logit precision lambda that best explains observed play: maximum likelihood over the
principal QRE branch and its profile-likelihood interval (as Gambit's logit_estimate).

--counts FILE is a JSON object mapping information-set labels (as `pokerdyn qre` prints
them, e.g. "P1:K|kb") to action counts, either by action name ({"P1:K|kb": {"f": 3,
"c": 12}}) or as a list in the set's action order ({"P1:K|kb": [3, 12]}); sets left out
count zero.  `pokerdyn simulate ... --counts-out FILE` writes such a file.  In the JSON
output an interval end the branch never reaches is null (infinite)."""
from __future__ import annotations

import time

from pokerdyn.commands.common import (GAME_HELP, emit_json, game_and_values, parse_float,
                                      read_json_file)


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--counts", required=True, help="JSON file of action counts per "
                                                   "information set")
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--level", default="0.95", help="confidence level of the interval "
                                                  "(default 0.95)")
    p.add_argument("--json", action="store_true", help="print JSON")


def read_counts(path: str):
    """The JSON value of the counts file (pokerdyn.commands.common.read_json_file: one line
    naming the file when it is not UTF-8, empty or not JSON); its content is checked by
    solvers.qre.estimate.counts_from_json."""
    return read_json_file(path, "counts")


def run(args) -> int:
    from pokerdyn.games import compile_game
    from pokerdyn.solvers.qre.estimate import counts_from_json, fit_lambda

    level = parse_float(args.level, "--level", low=0.0, high=1.0, low_open=True, high_open=True)
    obj = read_counts(args.counts)  # before the game is built
    game, values = game_and_values(args.game, args.pot)
    cg = compile_game(game, values)
    counts = counts_from_json(cg, obj)
    t0 = time.perf_counter()
    fit = fit_lambda(cg, counts, level=level)
    res = {"game": game.name, "values": dict(cg.values), **fit.to_json(),
           "seconds": time.perf_counter() - t0}
    if args.json:
        emit_json(res)
        return 0
    lo, hi = fit.interval
    print(f"{game.name}  {', '.join(f'{k}={v:g}' for k, v in cg.values.items())}  "
          f"{fit.n_observations} observed actions")
    print(f"lambda = {fit.lam:.6g}   {100 * level:g}% interval [{lo:.6g}, {hi:.6g}]   "
          f"log-likelihood {fit.log_likelihood:.6f}")
    return 0
