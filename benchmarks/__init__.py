"""pokerdyn's benchmarks: timing scripts run through one harness (pokerdyn.benchmarking).

    python -m benchmarks list                      # the registered benchmarks
    python -m benchmarks NAME|all [--quick] [--out results.json] [--markdown BENCHMARKS.md]
    python -m benchmarks --table results.json --markdown BENCHMARKS.md
    python benchmarks/bench_fp.py [its own flags]  # each script still runs alone

``BENCHMARKS`` is the registry: name -> (script, what it times).  Adding a benchmark is a
script whose ``main(argv)`` returns its :class:`pokerdyn.benchmarking.Measurement` list (and
a ``QUICK`` argument list) plus one line here.  Research scripts that time nothing are in
experiments/.
"""
from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

BENCHMARKS: dict[str, tuple[str, str]] = {
    "fp": ("bench_fp.py", "fictitious play and NashConv against the plain-Python reference"),
    "cfr": ("bench_cfr.py", "CFR+ against fictitious play (and OpenSpiel's C++ CFR+)"),
    "public-tree": ("bench_public_tree.py",
                    "public-tree CFR+ per iteration and memory against the history tree"),
    "cfr-variants": ("bench_cfr_variants.py",
                     "the CFR variants against CFR+, LiteEFG and OpenSpiel's C++ CFR+"),
    "fp-hedge": ("bench_fp_hedge.py", "FP against hedge on 3-seat ICM jam/fold"),
    "scale": ("bench_scale.py", "build, compile, evaluate a synthetic 10^7-node game"),
    "openspiel": ("bench_openspiel.py", "an imported OpenSpiel game against OpenSpiel"),
    "ode": ("bench_ode.py", "64 skp trajectories: batched field against a Python loop"),
    "simulate": ("bench_simulate.py", "repeated-play rounds per second against pure Python"),
    "gambit": ("bench_gambit.py", "Gambit enumpoly on SKP against our closed-form check"),
    "enumeration": ("bench_enumeration.py", "exact enumeration over the P axis (processes)"),
    "holdem": ("bench_holdem.py", "hold'em games built from rules"),
    "equity": ("bench_equity.py", "the heads-up preflop equity table"),
    "jamfold": ("bench_jamfold.py", "N-seat ICM jam/fold over sampled deals"),
    "selby": ("bench_selby.py", "Selby's preflop hold'em: build and LP"),
    "mercer-scale": ("bench_mercer_scale.py", "3P-MMH and SMH built and solved by CFR+"),
    "mercer-mmh4": ("bench_mercer_mmh4.py", "4-player MMH sized from smaller decks"),
    "lyapunov": ("bench_lyapunov.py", "one Benettin run against scipy solve_ivp"),
    "qre": ("bench_qre.py", "logit QRE branches against pygambit"),
    "continuation": ("bench_continuation.py", "continuation in P against the exact axis"),
    "lcp": ("bench_lcp.py", "sequence-form LCP against pygambit's lcp_solve"),
    "multiway": ("bench_multiway.py", "3-seat jam/fold over the 169 classes"),
    "full-street": ("bench_full_street.py", "full-street enumeration against kuhn3-third"),
    "kuhn3-set": ("bench_kuhn3_set.py", "the kuhn3 equilibrium set at P = 3"),
    "conformance-gambit": ("conformance_gambit.py", "Gambit's .efg collection read and solved"),
}


def script(name: str) -> Path:
    """The file of a registered benchmark."""
    return HERE / BENCHMARKS[name][0]
