"""ODE models of adaptive players, generated from any game with named parameters.

Billingham section 4.1, eqs. (18)-(20): every named parameter x, owned by player p, moves up
the gradient of p's expected payoff,

    dx/dt = k_x * g(x) * f_x(s_x * dE_p/dx),

with ``g(x) = x(1 - x)`` (so each face of the cube [0, 1]^n is invariant), ``f_x``
non-decreasing (identity by default), ``k_x > 0`` and ``s_x > 0`` a normalisation.

Normalisation ``"paper"``: ``s_x = 1/|LC(dE_p/dx)|``, where LC is the leading coefficient of
the gradient as a polynomial in the named parameters (graded reverse lexicographic order,
coefficients may contain game parameters such as the pot P).  The gradient is thereby made
monic (up to its sign).  For ``skp`` this gives 24/(P+1), 24/P and 24/(P+1) for b_J, c_K and
d_Q, and the model is exactly Billingham (21)-(23).  The sign of LC is taken at the given
game-parameter values (or at a sample point of the parameter's domain); a leading coefficient
that vanishes there raises GameError.  ``"raw"``: ``s_x = 1`` (the plain gradient).  A dict
``{name: s}`` sets s_x explicitly.

The right-hand side, its Jacobian and the payoffs are derived symbolically from the tree
(``solvers.symbolic.model.payoffs``) and compiled once into numpy functions that accept a state of
shape ``(n,)`` or a batch ``(n, m)``; the Jacobians (of the field and of the payoffs) when
first used.

Fixed parameters: ``fixed={name: value}`` substitutes parameters before the model is built,
so it runs on the others only; ``fixed="dominance"`` takes the values that iterated
elimination of dominated actions fixes (:func:`solvers.symbolic.model.dominance.iterated_dominance`,
at the given pot), so a game such as ``kuhn3-full-simplified`` (36 parameters) runs on its
nontrivial frequencies (13).
"""
from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Mapping, Sequence, Union

import numpy as np
import sympy as sp
from numpy.typing import NDArray
from sympy.printing.numpy import NumPyPrinter

from pokerdyn.games import Game, GameError
from pokerdyn.games.strategy import param_symbols
from pokerdyn.dynamics.budget import K_MAX
from pokerdyn.dynamics.model_protocol import FieldMethods, check_state  # noqa: F401
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs
from pokerdyn.dynamics.summary import summary_repr

FuncLike = Union[Callable[[Any], Any], sp.Expr, None]


@dataclass(frozen=True)
class ODEModel(FieldMethods):
    """A compiled ODE model of adaptive play (see module docstring); a
    :class:`~pokerdyn.dynamics.model_protocol.DynamicsModel`.

    ``rhs``, ``jacobian`` and ``payoffs`` are exact sympy expressions in ``symbols``;
    ``f(t, y)`` / ``jac(t, y)`` follow the :func:`scipy.integrate.solve_ivp` convention and
    accept ``y`` of shape ``(n,)`` or ``(n, m)`` (vectorised).
    """

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    game: str
    names: tuple[str, ...]
    owners: tuple[int, ...]
    symbols: tuple[sp.Symbol, ...]
    rhs: tuple[sp.Expr, ...]
    payoffs: tuple[sp.Expr, ...]
    values: dict[str, Any]
    k: tuple[Any, ...]
    scale: tuple[Any, ...]
    g: tuple[sp.Expr, ...]          # g_x(x) as expressions in the symbols
    meta: dict[str, Any] = field(default_factory=dict)
    _f: Callable = field(default=None, repr=False, compare=False)
    _pay: Callable = field(default=None, repr=False, compare=False)

    # The Jacobians are derived when first used: a run of the compiled kernels
    # (dynamics.chaos) needs neither, and on the 13 frequencies of the full-street game
    # they were most of the model's construction time.
    @cached_property
    def jacobian(self) -> sp.Matrix:
        """d(rhs)/d(symbols), exact."""
        return sp.Matrix(self.rhs).jacobian(self.symbols)

    @cached_property
    def _jac(self) -> Callable:
        return compile_exprs(self.symbols, list(self.jacobian), (self.n, self.n))

    @cached_property
    def _dpay(self) -> Callable:
        return compile_exprs(self.symbols, list(sp.Matrix(self.payoffs).jacobian(self.symbols)),
                             (self.n_players, self.n))

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def n_players(self) -> int:
        return len(self.payoffs)

    def label(self) -> str:
        """Short description for plot titles: game, parameter values and rates."""
        vals = ", ".join(f"{k} = {_fmt(v)}" for k, v in self.values.items())
        ks = ", ".join(f"k_{n} = {_fmt(k)}" for n, k in zip(self.names, self.k))
        if len(set(map(str, self.k))) == 1:
            ks = f"k = {_fmt(self.k[0])}"
        return f"{self.game}: {vals}{', ' if vals else ''}{ks}"


def _fmt(v: Any) -> str:
    try:
        x = float(v)
        return f"{x:g}"
    except TypeError:
        return str(v)


def ode_rhs(game: Game, k: Any = 1, g: Any = None, f: Any = None,
            normalisation: Any = "paper", values: Mapping[str, Any] | None = None,
            fixed: Mapping[str, Any] | str | None = None
            ) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Expr, ...], dict[str, Any]]:
    """Symbolic right-hand side of the adaptive-play ODE of ``game``.

    Parameters
    ----------
    game : a game with named parameters.
    k : rates k_x > 0: a number or sympy symbol (all parameters), a sequence with one rate
        per player (Billingham's k_1, k_2, k_3), or a dict ``{name: k}``.
    g, f : a Python callable that accepts a sympy expression, or a sympy expression in one
        free symbol; or a dict ``{name: ...}``.  Defaults ``g(x) = x(1-x)``, ``f(z) = z``.
    normalisation : ``"paper"``, ``"raw"`` or a dict ``{name: s_x}`` (see module docstring).
    values : game-parameter values substituted exactly (``{"P": 9}``); others stay symbolic.
    fixed : ``{name: value}`` parameters held fixed (substituted), or ``"dominance"``.

    Returns
    -------
    (symbols, rhs, info) with info = {"k", "scale", "g", "grad", "payoffs", "names",
    "fixed"}; ``k``, ``scale``, ``g``, ``grad`` have one entry per free parameter.
    """
    if not game.named_names:
        raise GameError(f"game {game.name!r} has no named parameters to adapt")
    exact = _exact_values(game, values)
    fix = fixed_values(game, fixed, exact)
    names = tuple(n for n in game.named_names if n not in fix)
    if not names:
        raise GameError(f"every parameter of game {game.name!r} is fixed: nothing adapts "
                        "(the model needs a free parameter: hold fewer fixed, e.g. no "
                        "dominance reduction)")
    syms = param_symbols(game)
    xs = tuple(syms[n] for n in names)
    for I in game.infosets:
        if len(I.actions) > 2:
            warnings.warn(f"information set {I.label} has {len(I.actions)} actions: each "
                          "named parameter adapts on its own, the simplex is not preserved",
                          stacklevel=2)
    at = {syms[n]: v for n, v in fix.items()}
    pays = tuple(sp.expand(e.xreplace(at)) for e in symbolic_payoffs(game)) if at else \
        symbolic_payoffs(game)
    ks = _per_param(k, game, "k", default=sp.Integer(1), names=names)
    for n, kx in zip(names, ks):
        _check_rate(n, kx)
    # exact rationals keep sympy's algebra (solve, integrate) in an exact domain
    ks = [sp.nsimplify(kx, rational=True) if isinstance(kx, (float, np.floating)) else
          sp.sympify(kx) for kx in ks]
    gs = [_as_function(gx, f"g for {n}") for n, gx in zip(names, _per_param(g, game, "g",
                                                                            names=names))]
    fs = [_as_function(fx, f"f for {n}") for n, fx in zip(names, _per_param(f, game, "f",
                                                                            names=names))]
    rhs, scales, gexprs, grads = [], [], [], []
    for i, n in enumerate(names):
        grad = sp.expand(sp.diff(pays[game.owner(n)], xs[i]))
        s = _scale(game, n, grad, xs, normalisation, exact)
        gx = sp.sympify(gs[i](xs[i])) if gs[i] else xs[i] * (1 - xs[i])
        _check_g(n, gx, xs[i])
        z = sp.expand(s * grad)
        fz = sp.sympify(fs[i](z)) if fs[i] else z
        if fs[i]:
            _check_f(n, fs[i])
        expr = ks[i] * gx * fz
        rhs.append(expr.subs(exact) if exact else expr)
        scales.append(s.subs(exact) if exact else s)
        gexprs.append(gx)
        grads.append(grad)
    pays_v = tuple(sp.expand(p.subs(exact)) if exact else p for p in pays)
    info = {"k": tuple(ks), "scale": tuple(scales), "g": tuple(gexprs), "grad": tuple(grads),
            "payoffs": pays_v, "names": names, "fixed": fix}
    return xs, tuple(rhs), info


def ode_model(game: Game, values: Mapping[str, Any] | None = None, k: Any = 1, g: Any = None,
              f: Any = None, normalisation: Any = "paper",
              fixed: Mapping[str, Any] | str | None = None) -> ODEModel:
    """Compiled adaptive-play ODE model of ``game`` at game-parameter ``values``
    (``{"P": 9}``).  All game parameters and rates must be numeric.  See :func:`ode_rhs`;
    ``meta["fixed"]`` holds the parameters held fixed."""
    vals = dict(game.defaults or {})
    vals.update(values or {})
    missing = [p.name for p in game.params if p.name not in vals]
    if missing:
        raise GameError(f"game {game.name!r} needs values for {', '.join(missing)} "
                        f"(e.g. --pot for P)")
    xs, rhs, info = ode_rhs(game, k, g, f, normalisation, vals, fixed)
    names = info["names"]
    for n, kx in zip(names, info["k"]):
        if not sp.sympify(kx).is_number:
            raise GameError(f"rate k for {n} must be a number, got {kx}")
    free = set().union(*(e.free_symbols for e in rhs)) - set(xs)
    if free:
        raise GameError(f"right-hand side still depends on {sorted(map(str, free))}")
    exact = _exact_values(game, vals)
    return ODEModel(
        game=game.name, names=names,
        owners=tuple(game.owner(n) for n in names), symbols=xs, rhs=rhs,
        payoffs=info["payoffs"], values={s.name: v for s, v in exact.items()},
        k=info["k"], scale=info["scale"], g=info["g"],
        meta={"normalisation": normalisation if isinstance(normalisation, str) else "custom",
              "fixed": {n: int(v) if v in (0, 1) else str(v) for n, v in info["fixed"].items()}},
        _f=compile_exprs(xs, list(rhs)), _pay=compile_exprs(xs, list(info["payoffs"])))


# ---------------------------------------------------------------------------- compilation
def compile_exprs(xs: Sequence[sp.Symbol], exprs: Sequence[sp.Expr],
                  shape: tuple[int, ...] | None = None) -> Callable:
    """Compile ``exprs`` (flattened, row-major ``shape``) into ``F(y)`` with ``y[i]`` the
    value of ``xs[i]``; ``y`` may carry trailing batch axes.  Common subexpressions are
    shared (sympy cse)."""
    shape = shape or (len(exprs),)
    printer = NumPyPrinter({"fully_qualified_modules": False, "inline": True})
    repl, red = sp.cse(list(exprs), symbols=sp.numbered_symbols("_c"))
    lines = ["def F(y):"]
    lines += [f"    {printer.doprint(x)} = y[{i}]" for i, x in enumerate(xs)]
    lines += [f"    {printer.doprint(s)} = {printer.doprint(e)}" for s, e in repl]
    lines += ["    out = empty((%d,) + y.shape[1:])" % len(exprs)]
    lines += [f"    out[{i}] = {printer.doprint(e)}" for i, e in enumerate(red)]
    lines += [f"    return out.reshape({shape!r} + y.shape[1:])"]
    code = "\n".join(lines)
    idents = set(re.findall(r"[A-Za-z_]\w*", code))
    ns: dict[str, Any] = {name: getattr(np, name) for name in idents
                          if not name.startswith("_") and hasattr(np, name)}
    exec(code, ns)  # noqa: S102 - code printed by sympy from our own expressions
    return ns["F"]


# ---------------------------------------------------------------------------- helpers
def _exact_values(game: Game, values: Mapping[str, Any] | None) -> dict[sp.Symbol, Any]:
    out = {}
    for name, v in (values or {}).items():
        sym = next((s for s in game.params if s.name == name), None)
        if sym is None:
            raise GameError(f"game {game.name!r} has no parameter {name!r}")
        if isinstance(v, float):
            dom = game.domains.get(name)
            if not math.isfinite(v) or (dom is not None and not dom.contains(v)):
                raise GameError(f"{name}={v} is outside the allowed range "
                                f"{dom.describe() if dom else ''}")
            v = sp.nsimplify(v, rational=True)
        out[sym] = sp.sympify(v)
    return out


def fixed_values(game: Game, fixed: Mapping[str, Any] | str | None,
                 exact: Mapping[sp.Symbol, Any] | None = None) -> dict[str, sp.Expr]:
    """The parameters to hold fixed, ``{name: exact value}``: ``fixed`` as given (names
    checked, values in [0, 1]) or, for ``"dominance"``, those that iterated weak dominance
    fixes at the pot in ``exact`` (over the whole P axis when P is not given)."""
    if fixed is None:
        return {}
    if isinstance(fixed, str):
        if fixed != "dominance":
            raise GameError(f"fixed={fixed!r}; use 'dominance' or a dict {{name: value}}")
        from pokerdyn.solvers.symbolic.model.dominance import iterated_dominance

        pot = next((v for s, v in (exact or {}).items() if s.name == "P"), None)
        return {n: sp.Integer(v) for n, v in iterated_dominance(game, pot).fixed.items()}
    out = {}
    for name, v in fixed.items():
        if name not in game.named_names:
            raise GameError(f"fixed: unknown parameter {name!r}; parameters: "
                            f"{', '.join(game.named_names)}")
        x = sp.nsimplify(v, rational=True) if isinstance(v, float) else sp.sympify(v)
        if not (x.is_number and 0 <= x <= 1):
            raise GameError(f"fixed {name}={v} is outside the allowed range [0, 1]")
        out[name] = x
    return out


def _per_param(spec: Any, game: Game, what: str, default: Any = None,
               names: Sequence[str] | None = None) -> list[Any]:
    names = game.named_names if names is None else tuple(names)
    if spec is None:
        return [default] * len(names)
    if isinstance(spec, Mapping):
        bad = [n for n in spec if n not in names]
        if bad:
            raise GameError(f"{what}: unknown parameter(s) {', '.join(map(str, bad))}; "
                            f"parameters: {', '.join(names)}")
        return [spec.get(n, default) for n in names]
    if isinstance(spec, (list, tuple, np.ndarray)):
        if len(spec) != game.n_players:
            raise GameError(f"{what}: give one value per player ({game.n_players}), "
                            f"got {len(spec)}")
        return [spec[game.owner(n)] for n in names]
    return [spec] * len(names)


def _check_rate(name: str, kx: Any) -> None:
    k = sp.sympify(kx)
    if k.is_number and not (k.is_real and k > 0 and k.is_finite and k <= K_MAX):
        raise GameError(f"rate k for {name} is {kx}; rates must be > 0 and <= {K_MAX:g}")
    if isinstance(k, sp.Symbol) and k.is_positive is False:
        raise GameError(f"rate k for {name} ({k}) must be positive")


def _as_function(spec: FuncLike, what: str) -> Callable[[sp.Expr], sp.Expr] | None:
    if spec is None:
        return None
    if isinstance(spec, sp.Basic):
        free = sorted(spec.free_symbols, key=str)
        if len(free) > 1:
            raise GameError(f"{what}: a sympy expression must have one free symbol, has "
                            f"{', '.join(map(str, free))}")
        return (lambda z, e=spec, s=free: e.subs(s[0], z)) if free else (lambda z, e=spec: e)
    if callable(spec):
        def call(z, fn=spec):
            try:
                return sp.sympify(fn(z))
            except (TypeError, AttributeError, sp.SympifyError) as exc:
                raise GameError(f"{what} must accept a sympy expression (use sympy "
                                f"functions, e.g. sympy.tanh, not numpy): {exc}") from None
        return call
    raise GameError(f"{what} must be a callable or a sympy expression, got {spec!r}")


def _check_g(name: str, gx: sp.Expr, x: sp.Symbol) -> None:
    at = {v: gx.subs(x, v) for v in (0, 1)}
    bad = {v: e for v, e in at.items() if not (e.is_number and abs(complex(e)) < 1e-14)}
    if bad:
        vals = ", ".join(f"g({v}) = {e}" for v, e in bad.items())
        warnings.warn(f"g for {name} does not vanish at 0 and 1 ({vals}): the cube [0, 1]^n "
                      "is not invariant and frequencies may leave [0, 1]", stacklevel=3)
    grid = np.linspace(0.01, 0.99, 33)
    gv = sp.lambdify(x, gx, "numpy")(grid)
    if np.any(np.asarray(gv) < 0):
        warnings.warn(f"g for {name} is negative somewhere in (0, 1): players then move "
                      "against their gradient", stacklevel=3)


def _check_f(name: str, fn: Callable) -> None:
    z = sp.Dummy("z")
    fz = sp.lambdify(z, fn(z), "numpy")
    grid = np.linspace(-5, 5, 201)
    v = np.broadcast_to(np.asarray(fz(grid), dtype=float), grid.shape)
    if np.any(np.diff(v) < -1e-12):
        warnings.warn(f"f for {name} is not non-decreasing on [-5, 5]", stacklevel=3)


def _scale(game: Game, name: str, grad: sp.Expr, xs: Sequence[sp.Symbol], normalisation: Any,
           exact: Mapping[sp.Symbol, Any]) -> sp.Expr:
    if isinstance(normalisation, Mapping):
        s = sp.sympify(normalisation.get(name, 1))
        if s.is_number and not s > 0:
            raise GameError(f"normalisation for {name} is {s}; it must be > 0")
        return s
    if normalisation == "raw":
        return sp.Integer(1)
    if normalisation != "paper":
        raise GameError(f"normalisation={normalisation!r}; use 'paper', 'raw' or a dict")
    if grad == 0:
        return sp.Integer(1)
    lc = sp.factor(sp.Poly(grad, *xs).LC(order="grevlex"))
    sample = dict(exact)
    for p in game.params:
        if p not in sample:
            dom = game.domains.get(p.name)
            lo = dom.low if dom is not None and math.isfinite(dom.low) else 0.0
            hi = dom.high if dom is not None and math.isfinite(dom.high) else lo + 20.0
            sample[p] = sp.nsimplify((lo + hi) / 2)
    val = lc.subs(sample)
    if val == 0:
        raise GameError(f"'paper' normalisation: the leading coefficient {lc} of dE/d{name} "
                        "vanishes at the given parameter values; use normalisation='raw'")
    return sp.factor(1 / lc if val > 0 else -1 / lc)
