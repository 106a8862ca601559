"""The logit precision lambda that best explains observed play: maximum likelihood over the
principal QRE branch and its profile-likelihood interval (as Gambit's logit_estimate).

--counts FILE is a JSON object mapping information-set labels (as `pokerdyn qre` prints
them, e.g. "P1:K|kb") to action counts, either by action name ({"P1:K|kb": {"f": 3,
"c": 12}}) or as a list in the set's action order ({"P1:K|kb": [3, 12]}); sets left out
count zero.  `pokerdyn simulate ... --counts-out FILE` writes such a file.  In the JSON
output an interval end the branch never reaches is null (infinite).  The work is
:func:`pokerdyn.api.qre.qre_fit` (``pd.qre_fit``)."""
from __future__ import annotations

from pokerdyn.commands.common import GAME_HELP, emit_json


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--counts", required=True, help="JSON file of action counts per "
                                                   "information set")
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--level", default="0.95", help="confidence level of the interval "
                                                  "(default 0.95)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.qre import qre_fit

    # the counts file is read (pokerdyn.api.inputs.read_json_file: one line naming the file
    # when it is not UTF-8, empty or not JSON) before the game is built
    result = qre_fit(args.game, args.counts, args.pot, level=args.level)
    if args.json:
        emit_json(result.to_dict())
    else:
        print(result.to_text())
    return 0
