"""Resource guards of the dynamics (issue 33): what a run will need, estimated before it
allocates or integrates anything, and refused with one line giving the estimate and the
limit.

* Memory: :func:`check_memory` compares an estimate in bytes with the limit of
  :mod:`games.size` (``--max-memory`` / :func:`games.size.resource_limits`, else the
  available memory; ``force`` skips the check), as the game builds do.
* Work of an ODE integration: an explicit integrator's step cannot exceed a few times the
  model's fastest time scale ``1 / rate`` (stability, Hairer and Wanner, *Solving ODEs II*,
  sec. IV.2), with ``rate`` the largest modulus of the Jacobian's eigenvalues, so a run to
  ``t_end`` takes at least about ``t_end * rate`` steps (measured on skp and kuhn3-third:
  2.2 to 25 right-hand-side evaluations of DOP853 per unit of ``t_end * rate``, the fewest
  where stability limits the step; 7.7 steps of the Lyapunov kernel's DOP54).
  :func:`check_run_length` refuses a run whose lower bound (:data:`NFEV_PER_UNIT` or
  :data:`STEPS_PER_UNIT` times ``t_end * rate``) exceeds its budget; the integrators also
  count their steps and
  stop with one line when the budget runs out (``max_nfev`` of
  :func:`dynamics.ode.solve.simulate`, ``max_steps`` of
  :func:`dynamics.chaos.lyapunov.run_chaos`).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from pokerdyn.games import GameError

# Largest adaptation rate k of the ODE and repeated-play models.  ODE: time can be rescaled
# (k t), so a larger k is a shorter run at k = K_MAX, and far larger rates overflow the field
# and its Jacobian (k = 1e300: inf in the integrator); repeated play: a step of k times the
# gradient saturates at k ~ 10 already, and k = 1e300 turned the frequencies into NaN.
K_MAX = 1e6
RATE_SAMPLES = 16  # seeded interior points at which the fastest rate is measured
# lower bounds of the work per unit of t_end * rate (module docstring): below the measured
NFEV_PER_UNIT = 2.0   # right-hand-side evaluations of solve_ivp's DOP853 (measured >= 2.2)
STEPS_PER_UNIT = 4.0  # steps of the Lyapunov kernel (dynamics.chaos.kernels; measured 7.7)


def check_memory(need: float, what: str, max_memory: str | int | None = None,
                 force: bool | None = None) -> None:
    """GameError unless ``need`` bytes (an estimate) fit in the memory limit: ``max_memory``
    (bytes or ``"4G"``) or else the limit of :func:`games.size.resource_limits`
    (``--max-memory``) or else the available memory; ``force`` (default: the context's)
    skips the check.  ``what``: the run and the values that make it large."""
    from pokerdyn.games import size

    ctx = size.current_limits()
    if (ctx.force if force is None else bool(force)):
        return
    if max_memory is not None:
        limit, source = size.parse_memory(max_memory, "max_memory"), "max_memory"
    elif ctx.max_memory is not None:
        limit, source = ctx.max_memory, "--max-memory"
    else:
        limit, source = size.available_memory(), "the available memory"
    if not need <= limit:
        raise GameError(f"{what} needs about {size.format_bytes(need)} of memory (estimate); "
                        f"the allowed memory limit is {size.format_bytes(limit)} ({source}); "
                        "set --max-memory SIZE or --force to run anyway")


def fastest_rate(model: Any, y0: ArrayLike | None = None) -> float:
    """The largest modulus of the eigenvalues of ``model``'s Jacobian over ``y0`` and
    :data:`RATE_SAMPLES` seeded points of ``(0.05, 0.95)^n`` (forward differences of the
    vectorised field ``model.f(t, y)``, y of shape (n, m): no symbolic Jacobian needed).
    GameError when the field is not finite there (rates or parameters too large)."""
    n = model.n
    Y = np.random.default_rng(0).uniform(0.05, 0.95, (n, RATE_SAMPLES))
    if y0 is not None:
        Y = np.column_stack([np.asarray(y0, dtype=float).reshape(n), Y])
    h = 1e-6
    with np.errstate(all="ignore"):
        F = np.asarray(model.f(0.0, Y), dtype=float)
        cols = [(np.asarray(model.f(0.0, Y + h * np.eye(n)[:, [i]]), dtype=float) - F) / h
                for i in range(n)]
    J = np.stack(cols, axis=1)  # J[:, i, m] = d f / d y_i at point m
    if not (np.all(np.isfinite(F)) and np.all(np.isfinite(J))):
        raise GameError(f"the field of {model.label()} is not finite (overflow); its rates "
                        "k and parameters must keep dy/dt finite: lower k")
    return float(max(np.abs(np.linalg.eigvals(J[:, :, m])).max() for m in range(J.shape[2])))


def check_run_length(model: Any, t_end: float, budget: int, what: str = "t_end",
                     unit: str = "right-hand-side evaluations", runs: int = 1,
                     y0: ArrayLike | None = None, per_unit: float = NFEV_PER_UNIT) -> float:
    """Refuse (GameError naming ``what``, its value and the largest allowed) a run of
    ``model`` to ``t_end`` (``runs`` times) whose lower bound on the work,
    ``per_unit * runs * |t_end| * rate`` (:func:`fastest_rate`), exceeds ``budget``
    ``unit``; returns the rate."""
    rate = fastest_rate(model, y0)
    need = per_unit * runs * abs(float(t_end)) * rate
    if not need <= budget:
        times = f" x {runs} runs" if runs > 1 else ""
        top = budget / (per_unit * runs * rate)
        raise GameError(f"{what}={float(t_end):g}{times} is too long ({model.label()}): at "
                        f"its fastest rate {rate:.3g} per unit time (the largest |eigenvalue| "
                        f"of the Jacobian) the run needs at least {need:.3g} {unit}; allowed: "
                        f"at most {budget:,}, i.e. {what} <= {top:.3g} (or lower k)")
    return rate


__all__ = ["K_MAX", "NFEV_PER_UNIT", "STEPS_PER_UNIT", "check_memory", "check_run_length",
           "fastest_rate"]
