"""Fictitious play against Freund-Schapire multiplicative weights (hedge) on a 3-seat ICM
jam/fold game (Ganzfried's tournament paper claims fictitious play converges faster):
NashConv against iterations and against seconds, and how far apart the two equilibria are.

The game: :func:`games.tournament.buckets.bucket_model` (the 169 classes in ``k`` equity
buckets, exact heads-up data, Monte Carlo 3-way outcomes), seats BTN/SB/BB with ``stacks``
big blinds, blinds 0.5/1, ICM ``payouts``; payoffs and NashConv in prize-pool fractions."""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure, save

NAME = "tournament_fp_hedge"
DATA = Path(__file__).resolve().parent / "data" / "fp_hedge.json"


def compare(k: int = 8, samples: int = 2000, stacks=(10.0, 10.0, 10.0),
            payouts=(0.5, 0.3, 0.2), target: float = 1e-3, iterations: int = 200_000,
            seconds: float | None = 120.0, seed: int = 0) -> dict:
    """Run both solvers until NashConv <= ``target`` (or the caps; ``seconds=None``: no time
    cap, so the result does not depend on the machine's load); returns the histories
    (iteration, NashConv, seconds), iterations and seconds to the target, the final
    NashConvs and the largest strategy difference between the two results."""
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.games.tournament.buckets import bucket_model
    from pokerdyn.games.tournament.jamfold import jamfold_game
    from pokerdyn.solvers import fictitious_play, hedge, nash_conv

    t0 = time.perf_counter()
    b = bucket_model(k, samples, seed)
    build = time.perf_counter() - t0
    game = jamfold_game(b.model, list(stacks), (0.5, 1.0), 0.0, 0, list(payouts))
    cg = compile_game(game)
    out = {"k": k, "samples": samples, "multiway_se": b.multiway_se, "model_seconds": build,
           "stacks": list(stacks), "payouts": list(payouts), "target": target,
           "infosets": len(game.infosets)}
    sig = {}
    for name, run in (("fp", fictitious_play), ("hedge", hedge)):
        res = run(cg, iterations=iterations, tol=target, seconds=seconds)
        h = np.asarray(res.history)
        hit = np.flatnonzero(h[:, 1] <= target)
        sig[name] = res.strategy
        out[name] = {"history": h.tolist(), "nash_conv": float(nash_conv(cg, res.strategy)),
                     "iterations": int(h[-1, 0]), "seconds": float(h[-1, 2]),
                     "iterations_to_target": int(h[hit[0], 0]) if hit.size else None,
                     "seconds_to_target": float(h[hit[0], 2]) if hit.size else None}
    out["max_strategy_difference"] = float(np.abs(sig["fp"] - sig["hedge"]).max())
    out["mean_strategy_difference"] = float(np.abs(sig["fp"] - sig["hedge"])[:, 1].mean())
    return out


def fp_hedge_figure(path: Path, result: dict) -> Path:
    """Write :func:`draw_fp_hedge` of ``result`` to ``path``; the path."""
    return save(draw_fp_hedge(result), Path(path).parent, Path(path).name)


def draw_fp_hedge(result: dict) -> Figure:
    """NashConv against iterations (left) and seconds (right), log-log, both solvers."""
    fig, axes = new_figure(1, 2, size=(10, 4))
    for name, style in (("fp", "-"), ("hedge", "--")):
        h = np.asarray(result[name]["history"])
        label = "fictitious play" if name == "fp" else "Freund-Schapire (hedge)"
        axes[0].loglog(h[:, 0], h[:, 1], style, label=label)
        axes[1].loglog(np.maximum(h[:, 2], 1e-4), h[:, 1], style, label=label)
    for ax, xl in zip(axes, ("iterations", "seconds")):
        ax.axhline(result["target"], color="grey", lw=0.8)
        ax.set_xlabel(xl)
        ax.set_ylabel("NashConv (prize-pool fraction)")
        ax.legend(fontsize=8)
    axes[0].set_title(f"3-seat ICM jam/fold, {result['k']} buckets, stacks "
                      f"{'/'.join(f'{s:g}' for s in result['stacks'])}", fontsize=9)
    return fig


def figure(seed: int = 0, quick: bool = False, heavy: bool = False,
           out_dir: Path | None = None) -> Figure:
    """The figure from the committed run (``figures/tournament/data/fp_hedge.json``, written
    by ``benchmarks/bench_fp_hedge.py``); ``heavy`` re-runs it (k 8, 2,000 samples, target
    1e-5, 150 s per solver; its JSON written to ``out_dir`` when given)."""
    if heavy:
        r = compare(k=8, samples=2000, target=1e-5, iterations=10_000_000, seconds=150.0,
                    seed=seed)
        if out_dir is not None:
            (Path(out_dir) / "fp_hedge.json").write_text(json.dumps(r))
    else:
        r = json.loads(DATA.read_text())
    fig = draw_fp_hedge(r)
    numbers = {}
    for name in ("fp", "hedge"):
        h = r[name]
        numbers[f"{name}: iterations, seconds, NashConv"] = (
            f"{h['iterations']:,}, {h['seconds']:.2f} s, {h['nash_conv']:.2e}")
        numbers[f"{name}: iterations to NashConv {r['target']:g}"] = h["iterations_to_target"]
    numbers["largest strategy difference"] = round(r["max_strategy_difference"], 4)
    return described(fig, NAME, "Fictitious play against Freund-Schapire (hedge) on "
                     f"the 3-seat ICM jam/fold game ({r['k']} equity buckets, stacks "
                     f"{'/'.join(f'{s:g}' for s in r['stacks'])} bb, payouts "
                     f"{'/'.join(f'{p:g}' for p in r['payouts'])}): NashConv against "
                     "iterations and seconds.", numbers,
                     "Ganzfried & Sandholm (tournament paper): fictitious play converges "
                     "faster than Freund-Schapire")


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/tournament_fp_hedge.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick, heavy=heavy, out_dir=out_dir), Path(out_dir))


__all__ = ["compare", "draw_fp_hedge", "figure", "fp_hedge_figure", "main"]
