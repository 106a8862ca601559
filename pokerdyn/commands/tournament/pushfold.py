"""Jam/fold (push/fold) equilibria: push and call ranges as 13x13 grids, or the heads-up
thresholds chart.

Seats act UTG first, big blind last (heads-up the small blind, on the button, first); each
player pushes all-in or folds, and after a push calls all-in or folds.  Payoffs are chips,
or with ``--payouts`` ICM equity (fractions of the prize pool).  Methods: ``lp`` (the
sequence-form LP, heads-up; the default there), ``fp`` (fictitious play) and ``hedge``
(per-information-set multiplicative weights).  Grids: row = first card, column = second;
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
(:mod:`games.preflop`); 3 or more all-in hands need a multiway equity provider."""
from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from pokerdyn.commands.common import (SEED_MAX, check_plot_file, emit_json, int_arg,
                                     parse_float, parse_list)

POSITIONS = {2: ("SB", "BB"), 3: ("BTN", "SB", "BB"), 4: ("CO", "BTN", "SB", "BB"),
             5: ("UTG", "CO", "BTN", "SB", "BB"), 6: ("UTG", "HJ", "CO", "BTN", "SB", "BB")}


def add_arguments(p) -> None:
    p.add_argument("--stacks", default=None, help="chips per seat in big blinds, e.g. 10,10")
    p.add_argument("--blinds", default="0.5,1", help="small,big blind (default 0.5,1)")
    p.add_argument("--ante", default="0", help="ante posted by every seat (default 0)")
    p.add_argument("--button", type=int_arg("button", 0, 5), default=0,
                   help="0-based seat of the button (default 0)")
    p.add_argument("--payouts", default=None,
                   help="ICM payouts, fractions of the prize pool (default: chip EV)")
    p.add_argument("--method", default=None, choices=("fp", "hedge", "lp", "cfr"),
                   help="solver (default lp heads-up, fp otherwise; cfr: CFR+, 3+ seats)")
    p.add_argument("--samples", type=int_arg("samples", 1), default=None,
                   help="3+ seats: sampled deals (default 20000)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="3+ seats: seed of the deal sample (default 0)")
    p.add_argument("--boards", type=int_arg("boards", 1), default=8,
                   help="3+ seats: boards per sampled deal (default 8)")
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=None,
                   help="iterations of fp / hedge / cfr (default 2000; model classes: 300 "
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


def _grid(names, probs) -> list[list[float]]:
    from pokerdyn.games.preflop.classes import grid_cell
    g = np.zeros((13, 13))
    for n, p in zip(names, probs):
        g[grid_cell(n)] = p
    return np.round(g, 6).tolist()


def _show_grid(title: str, grid) -> None:
    from pokerdyn.games.preflop.classes import RANKS
    print(f"{title}  (% of combos played)")
    print("     " + "".join(f"{r:>4}" for r in RANKS))
    for r, row in zip(RANKS, grid):
        print(f"{r:>4} " + "".join("   ." if x < 5e-3 else " 100" if x > 0.995
                                    else f"{100 * x:>4.0f}" for x in row))


def _ranges(game, sigma, order: tuple[int, ...], hand: str | None):
    """Range key ("SB push []", "BB call [p]") -> 13x13 grid, from the information sets."""
    out, seen = {}, {}
    for I, info in enumerate(game.infosets):
        seen.setdefault((info.player, info.label.split("|", 1)[1]), []).append(I)
    order_pos = POSITIONS[len(order)]
    for (p, hist), idx in seen.items():
        acts = game.infosets[idx[0]].actions
        act = "call" if "c" in acts else "push"
        a = acts.index("c" if act == "call" else "p")
        names = [game.infosets[I].label.split(":", 1)[1].split("|", 1)[0] for I in idx]
        probs = sigma[idx, a]
        if hand is not None:
            probs = np.where(np.array(names) == hand, probs, 0.0)
        pos = order_pos[order.index(p)]
        out[f"{pos} {act} [{hist}]"] = _grid(names, probs)
    return out


def _solve(cg, method: str, iterations: int, progress: bool):
    from pokerdyn.solvers import cfr, fictitious_play, hedge, nash_conv, solve_lp
    if method == "lp":
        res = solve_lp(cg)
        return res.strategies, nash_conv(cg, res.strategies)
    run = {"fp": fictitious_play, "hedge": hedge, "cfr": cfr}[method]
    res = run(cg, iterations=iterations, progress=progress)
    return res.strategy, res.nash_conv


def _parse_common(args):
    blinds = parse_list(args.blinds, "blinds", counts=(2,), low=0, low_open=True)
    ante = parse_float(args.ante, "ante", low=0)
    return blinds, ante


def run(args) -> int:
    from pokerdyn.games import GameError
    from pokerdyn.games.preflop.classes import class_index
    from pokerdyn.games.tournament import hands

    blinds, ante = _parse_common(args)
    if args.hand is not None:
        class_index(args.hand)
    if args.chart:
        return _run_chart(args, blinds, ante)
    if args.stacks is None:
        raise GameError("pushfold needs --stacks (e.g. 10,10) or --chart")
    stacks = parse_list(args.stacks, "stacks", low=0, low_open=True)
    payouts = None if args.payouts is None else parse_list(args.payouts, "payouts", low=0)
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.games.tournament.icm import check_payouts
    from pokerdyn.games.tournament.jamfold import jamfold_game, table

    t = table(stacks, blinds, ante, args.button)
    if payouts is not None:
        check_payouts(payouts, len(stacks))
    method = args.method or ("lp" if len(stacks) == 2 else "fp")
    if method == "lp" and len(stacks) != 2:
        raise GameError(f"--method lp solves heads-up games; {len(stacks)} seats need fp, hedge "
                        "or cfr")
    model = args.model or "sampled"
    if model == "classes":
        if len(stacks) != 3 or args.method not in (None, "cfr"):
            raise GameError(f"--model classes solves 3 seats with cfr (got {len(stacks)} "
                            f"seats, method {args.method or method})")
        return _run_sampled(args, stacks, blinds, ante, payouts, "cfr", t, model)
    if len(stacks) >= 3:
        return _run_sampled(args, stacks, blinds, ante, payouts, method, t)
    start = time.perf_counter()
    game = jamfold_game(hands.preflop_model(), stacks, blinds, ante, args.button, payouts)
    sigma, nc = _solve(compile_game(game), method, args.iterations or 2000, not args.json)
    seconds = time.perf_counter() - start
    ranges = _ranges(game, sigma, t.order, args.hand)
    units = "chips" if payouts is None else "ICM equity (prize-pool fractions)"
    if args.json:
        emit_json({"stacks": stacks, "blinds": blinds, "ante": ante, "button": args.button,
                   "payouts": payouts, "method": method, "units": units, "ranges": ranges,
                   "nash_conv": nc, "seconds": seconds})
        return 0
    print(f"jam/fold, stacks {stacks}, blinds {blinds}, ante {ante:g}, method {method}: "
          f"NashConv {nc:.3g} ({units}), {seconds:.2f} s")
    for key, grid in ranges.items():
        _show_grid(key, grid)
    return 0


def _run_sampled(args, stacks, blinds, ante, payouts, method, t, model="sampled") -> int:
    """3 to 6 seats: the equilibrium over sampled deals, or 3 seats over the 169 classes
    (solvers.tournament)."""
    from pokerdyn.solvers.tournament import jamfold_equilibrium

    samples = args.samples or 20_000
    iterations = args.iterations or (300 if model == "classes" else 2000)
    shift = parse_float(args.max_displacement, "max-displacement", low=0, low_open=True)
    start = time.perf_counter()
    eq = jamfold_equilibrium(stacks, blinds, ante, payouts, args.button, method, samples,
                             args.seed, args.boards, iterations, progress=not args.json,
                             model=model, max_displacement=shift)
    seconds = time.perf_counter() - start
    names = POSITIONS[len(stacks)]
    ranges = {}
    for key, grid in eq.ranges.items():
        seat, rest = key.split(" ", 1)
        if args.hand is not None:
            from pokerdyn.games.tournament.hands import grid_cell
            r, c = grid_cell(args.hand)
            grid = [[x if (i, j) == (r, c) else None for j, x in enumerate(row)]
                    for i, row in enumerate(grid)]
        ranges[f"{names[t.order.index(int(seat[1:]) - 1)]} {rest}"] = grid
    units = "chips" if payouts is None else "ICM equity (prize-pool fractions)"
    se = eq.standard_error.tolist()
    if args.json:
        emit_json({"stacks": stacks, "blinds": blinds, "ante": ante, "button": args.button,
                   "payouts": payouts, "method": method, "units": units, "ranges": ranges,
                   "nash_conv": eq.nash_conv, "seconds": seconds, "samples": eq.samples,
                   "seed": eq.seed, "boards": args.boards,
                   "expected_payoffs": eq.expected_payoffs.tolist(),
                   "standard_error": se, "iterations": eq.iterations, "nodes": eq.nodes,
                   "undetermined": eq.undetermined, "model": model,
                   **({} if model == "sampled" else
                      {"threshold_error": eq.threshold_error, "equity_se": eq.equity_se,
                       "mc_samples": eq.samples})})
        return 0
    if model == "classes":
        print(f"jam/fold, stacks {stacks}, 169 classes (exact deal probabilities and heads-up "
              f"equities, {eq.samples:,} 3-way Monte Carlo deals, seed {eq.seed}): NashConv "
              f"{eq.nash_conv:.3g} ({units}), {seconds:.1f} s; largest threshold "
              f"displacement {eq.threshold_error:.3g} bb")
        for key, grid in ranges.items():
            _show_grid(key, grid)
        return 0
    print(f"jam/fold, stacks {stacks}, blinds {blinds}, ante {ante:g}, method {method}, "
          f"{eq.samples} sampled deals (seed {eq.seed}): NashConv {eq.nash_conv:.3g} "
          f"({units}), {seconds:.2f} s")
    print("expected payoffs " + ", ".join(f"{v:+.4f} (se {e:.4f})"
                                         for v, e in zip(eq.expected_payoffs, se)))
    print(f"{100 * eq.undetermined:.0f}% of the decisions are within 2 standard errors of "
          "indifference (raise --samples to settle them)")
    for key, grid in ranges.items():
        _show_grid(key, [[0.0 if x is None else x for x in row] for row in grid])
    return 0


def _count(table: dict) -> int:
    return sum(len(v) for v in table.values())


# One LP per stack of a chart (about 0.05 s each): --force lifts MAX_CHART_STACKS, never
# MAX_CHART_STACKS_FORCED (the grid and two (stacks, 169) results: 2.7 KB a stack).
MAX_CHART_STACKS = 20_000
MAX_CHART_STACKS_FORCED = 200_000


def chart_stacks(top: float, step: float, floor: float, force: bool = False) -> NDArray:
    """The chart's stacks: the grid ``step, 2 step, ... <= top`` above ``floor`` (the big
    blind plus ante), counted before anything is allocated: GameError with the count and
    the limit when there are more than MAX_CHART_STACKS (MAX_CHART_STACKS_FORCED with
    ``force``), or none.  The quotients may overflow (1e308 / 1e-308)."""
    from pokerdyn.games import GameError

    if top <= floor:
        raise GameError(f"max-stack={top:g} leaves no stack above the big blind plus ante "
                        f"({floor:g})")
    with np.errstate(over="ignore"):
        est, below = np.float64(top) / step, np.floor(np.float64(floor) / step)
    solved = est - below
    limit = MAX_CHART_STACKS_FORCED if force else MAX_CHART_STACKS
    # past 1e15 grid indices are not exact floats: that many stacks is refused either way
    if np.isfinite(est) and est > 1e15 and solved <= limit:
        raise GameError(f"step={step:g} is too small for stacks up to max-stack={top:g} "
                        f"({est:.3g} grid steps); allowed: steps of at least max-stack/1e15")
    if not np.isfinite(est) or solved > limit + 1e-6:
        count = "more than 1e308" if not np.isfinite(solved) else f"{solved:,.0f}" \
            if solved < 1e15 else f"{solved:.3g}"
        raise GameError(f"max-stack={top:g} with step={step:g} makes {count} chart stacks "
                        f"(one LP each); allowed: at most {limit:,}"
                        + ("" if force else f" (raise --step; --force allows up to "
                           f"{MAX_CHART_STACKS_FORCED:,})"))
    # the grid from just below the floor: k * step as in the full grid, without its start
    k = np.arange(max(1, int(below) - 1), int(np.floor(est + 1e-9)) + 1)
    grid = np.round(k * step, 10)
    grid = grid[grid > floor + 1e-12]
    if grid.size == 0:
        raise GameError(f"max-stack={top:g} leaves no stack above the big blind plus ante "
                        f"({floor:g})")
    return grid


def _run_chart(args, blinds, ante) -> int:
    from pokerdyn.games.preflop.classes import grid_cell
    from pokerdyn.games.tournament import hands
    from pokerdyn.games.tournament.jamfold import MAX_DEPTH
    from pokerdyn.figures.tournament.chart import chart_tables
    from pokerdyn.solvers.tournament import hu_chart_faces

    plot = None if args.plot is None else check_plot_file(args.plot)
    step = parse_float(args.step, "step", low=0, low_open=True)
    top = parse_float(args.max_stack, "max-stack", low=0, low_open=True,
                      high=MAX_DEPTH * blinds[1])
    grid = chart_stacks(top, step, blinds[1] + ante, getattr(args, "force", False))
    near_bb = parse_float(args.margin, "margin", low=0)
    start = time.perf_counter()
    model = hands.preflop_model()
    ch = hu_chart_faces(model, grid, blinds, ante, progress=not args.json)
    seconds = time.perf_counter() - start
    names = [args.hand] if args.hand else list(model.names)
    res = chart_tables(ch, names, [model.names.index(h) for h in names], near_bb)
    if plot is not None:
        from pokerdyn.figures.tournament.chart import chart_figure, near_classes
        tables = {**res, "stacks": grid.tolist()}
        res["plot"] = str(chart_figure(plot, res["push"], res["call"],
                                       {h: grid_cell(h) for h in names}, float(grid[-1]),
                                       optional={k: set(res[f"{k}_optional"]) for k in
                                                 ("push", "call")},
                                       near={k: near_classes(tables, k) for k in
                                             ("push", "call")}, margin_bb=near_bb))
    if args.json:
        emit_json({**res, "blinds": blinds, "ante": ante, "stacks": grid.tolist(),
                   "margin_threshold_bb": near_bb, "seconds": seconds})
        return 0
    print(f"heads-up jam/fold chart, blinds {blinds}, ante {ante:g}, stacks {grid[0]:g} to "
          f"{grid[-1]:g} step {step:g} ({seconds:.1f} s); intervals in big blinds")
    print(f"optional: pushing {_count(res['push_optional'])}, calling "
          f"{_count(res['call_optional'])} (hand, stack) cells; near-indifferent (|margin| < "
          f"{near_bb:g} bb, marked ~): pushing {_count(res['push_near'])}, calling "
          f"{_count(res['call_near'])}")
    for h in names:
        fmt = lambda iv: ", ".join(f"{a:g}-{b:g}" for a, b in iv) or "-"  # noqa: E731
        mark = lambda key: "~" if h in res[f"{key}_near"] else " "  # noqa: E731
        print(f"{h:>4}  push{mark('push')}{fmt(res['push'][h]):<28} call{mark('call')}"
              f"{fmt(res['call'][h])}")
    if plot is not None:
        print(f"wrote {res['plot']}")
    return 0
