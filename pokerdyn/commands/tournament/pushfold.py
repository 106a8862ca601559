"""Jam/fold (push/fold) equilibria: push and call ranges as 13x13 grids, or the heads-up
thresholds chart.

Seats act UTG first, big blind last (heads-up the small blind, on the button, first); each
player pushes all-in or folds, and after a push calls all-in or folds.  Payoffs are chips,
or with ``--payouts`` ICM equity (fractions of the prize pool).  Methods, named as in the
registry (:mod:`pokerdyn.solvers.methods`): ``lp`` (the sequence-form LP, heads-up; the
default there), ``fp`` (fictitious play), ``hedge`` (per-information-set multiplicative
weights) and ``cfr+`` (CFR+); ``cfr`` is accepted as the jam/fold alias of ``cfr+`` (the
CFR family here is CFR+ only; :data:`pokerdyn.solvers.tournament.METHOD_ALIASES`), and
the JSON's ``method`` is the name given.  Grids: row = first card, column = second;
pairs on the diagonal, suited hands above it, offsuit below it; a cell is the probability
of pushing (calling).

``--chart``: the heads-up chip-EV equilibrium at every effective stack of the grid
``--step, 2 --step, ... --max-stack`` (big blinds; only stacks above the big blind plus
ante), solved by LP; a class is *played* at a stack when its push (call) probability
exceeds 1/2; JSON keys ``push`` and ``call`` map each class to its list of ``[low, high]``
intervals of played stacks, and ``push_mixed``/``call_mixed`` list ``[stack, probability]``
where the equilibrium found mixes (then a class near its threshold may show short
intervals: a mixing zone, not a gap; a gap is a run of pure folds between pure pushes).
``push_margin_bb``/``call_margin_bb`` map each class to its EV margin at every stack of
``stacks`` (big blinds: EV(push) - EV(fold) of the small blind's hand, EV(call) - EV(fold)
of the big blind's hand facing a push, against the other player's LP strategy); a choice is
forced where its margin is not 0 (over *all* optimal strategies,
:func:`solvers.tournament.hu_chart_faces`); ``push_optional``/``call_optional`` list
``[stack, low, high]`` where the probability can move over the optimal face (none on the
default grid: every cell is forced, or uniquely mixed); ``push_near``/``call_near`` list
``[stack, margin]`` where ``|margin| < --margin`` (default 0.01 bb): near-indifferent
cells (the plot outlines the classes near-indifferent away from their thresholds,
:func:`figures.tournament.chart.near_classes`, and hatches optional ones).

Hand classes, deal probabilities and heads-up equities come from the 169-class table
(:mod:`games.preflop`); 3 or more all-in hands need a multiway equity provider.

The work is :func:`pokerdyn.api.tournament.pushfold` (``pd.pushfold``) and, with
``--chart``, :func:`pokerdyn.api.tournament.pushfold_chart` (``pd.pushfold_chart``)."""
from __future__ import annotations

from pokerdyn.commands.common import SEED_MAX, emit_json, int_arg

# the chart's grid and its limits, still importable from here (loaded when asked for: the
# parser must not load the solvers)
_FROM_SOLVERS = ("MAX_CHART_STACKS", "MAX_CHART_STACKS_FORCED", "chart_stacks")


def __getattr__(name: str):
    if name in _FROM_SOLVERS:
        import pokerdyn.solvers.tournament as tournament
        return getattr(tournament, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def add_arguments(p) -> None:
    p.add_argument("--stacks", default=None, help="chips per seat in big blinds, e.g. 10,10")
    p.add_argument("--blinds", default="0.5,1", help="small,big blind (default 0.5,1)")
    p.add_argument("--ante", default="0", help="ante posted by every seat (default 0)")
    p.add_argument("--button", type=int_arg("button", 0, 5), default=0,
                   help="0-based seat of the button (default 0)")
    p.add_argument("--payouts", default=None,
                   help="ICM payouts, fractions of the prize pool (default: chip EV)")
    p.add_argument("--method", default=None, choices=("fp", "hedge", "lp", "cfr+", "cfr"),
                   help="solver (default lp heads-up, fp otherwise; cfr+: CFR+, 3+ seats; "
                        "cfr: its alias here)")
    p.add_argument("--samples", type=int_arg("samples", 1), default=None,
                   help="3+ seats: sampled deals (default 20000)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="3+ seats: seed of the deal sample (default 0)")
    p.add_argument("--boards", type=int_arg("boards", 1), default=8,
                   help="3+ seats: boards per sampled deal (default 8)")
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=None,
                   help="iterations of fp / hedge / cfr+ (default 2000; model classes: 300 "
                        "CFR+ iterations, then 100 per refinement)")
    p.add_argument("--model", default=None, choices=("classes", "sampled"),
                   help="3 seats: 'classes' (169 classes, exact deal probabilities and "
                        "heads-up equities, 3-way Monte Carlo certified to --max-displacement; "
                        "CFR+; 10-30 minutes on two cores) or 'sampled' (sampled deals, the "
                        "default; the only one for 4-6 seats)")
    p.add_argument("--max-displacement", default="0.1",
                   help="model classes: largest threshold displacement allowed, big blinds "
                        "(default 0.1)")
    p.add_argument("--hand", default=None, help="show only this hand class, e.g. AKs")
    p.add_argument("--chart", action="store_true", help="heads-up thresholds chart")
    p.add_argument("--max-stack", default="20", help="chart: largest stack (default 20)")
    p.add_argument("--step", default="0.1", help="chart: stack step (default 0.1)")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="chart: also draw the two 13x13 threshold heatmaps to FILE (.png, .pdf)")
    p.add_argument("--margin", default="0.01", metavar="BB",
                   help="chart: a choice whose EV margin over the other choice is below BB "
                        "big blinds is near-indifferent (listed, outlined in the plot; "
                        "default 0.01)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.tournament import pushfold, pushfold_chart

    if args.chart:
        result = pushfold_chart(blinds=args.blinds, ante=args.ante, max_stack=args.max_stack,
                                step=args.step, margin=args.margin, hand=args.hand,
                                plot=args.plot, progress=not args.json,
                                force=getattr(args, "force", False))
    else:
        result = pushfold(args.stacks, blinds=args.blinds, ante=args.ante, button=args.button,
                          payouts=args.payouts, method=args.method, model=args.model,
                          samples=args.samples, seed=args.seed, boards=args.boards,
                          iterations=args.iterations, max_displacement=args.max_displacement,
                          hand=args.hand, progress=not args.json)
    if args.json:
        emit_json(result.to_dict())
    else:
        print(result.to_text())
    return 0
