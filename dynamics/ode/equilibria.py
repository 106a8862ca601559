"""Equilibria of an ODE model in the cube [0, 1]^n, their Jacobian spectra and a
classification (Billingham section 4.1: S1, S2, S3 for ``skp``).

Every coordinate x_i is either fixed at a zero of its g_i (0 or 1 by default: the invariant
faces x_i = 0, x_i = 1) or free; a free coordinate must zero the reduced field
``h_i = (dx_i/dt) / g_i(x_i)``.  Each of the 3^n choices is solved exactly with sympy, so
interior equilibria and those on faces, edges and vertices are all found.

On an invariant plane x_i = v through an equilibrium, row i of the Jacobian is zero off the
diagonal, so the spectrum splits into the transverse eigenvalue J_ii and the eigenvalues of
the flow within the plane; the classification reports both.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import GameError
from pokerdyn.dynamics.ode.model import ODEModel
from pokerdyn.dynamics.summary import summary_repr


@dataclass(frozen=True)
class FaceSpectrum:
    """The invariant plane ``name = value`` through an equilibrium, the eigenvalues of the
    flow within it and the transverse eigenvalue."""

    name: str
    value: Any
    in_plane: NDArray[np.complex128]
    transverse: complex

    @property
    def plane(self) -> str:
        return f"{self.name}={self.value}"


@dataclass(frozen=True)
class Equilibrium:
    """An equilibrium: numeric and exact coordinates, Jacobian eigen-decomposition
    (``eigenvectors[:, j]`` belongs to ``eigenvalues[j]``), dimensions of the stable,
    unstable and centre subspaces, invariant planes through it and a type string."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    point: dict[str, float]
    exact: dict[str, sp.Expr]
    eigenvalues: NDArray[np.complex128]
    eigenvectors: NDArray[np.complex128]
    stable_dim: int
    unstable_dim: int
    centre_dim: int
    faces: tuple[FaceSpectrum, ...] = ()
    type: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def x(self) -> NDArray[np.float64]:
        return np.array(list(self.point.values()))

    def to_json(self) -> dict[str, Any]:
        return {"point": self.point, "exact": {k: str(v) for k, v in self.exact.items()},
                "eigenvalues": [[float(z.real), float(z.imag)] for z in self.eigenvalues],
                "type": self.type, "stable_dim": self.stable_dim,
                "unstable_dim": self.unstable_dim, "centre_dim": self.centre_dim,
                "invariant_planes": [
                    {"plane": f.plane,
                     "in_plane": [[float(z.real), float(z.imag)] for z in f.in_plane],
                     "transverse": [float(f.transverse.real), float(f.transverse.imag)]}
                    for f in self.faces]}


def face_values(model: ODEModel) -> list[list[sp.Expr]]:
    """Per coordinate, the real zeros of g_i in [0, 1]: the invariant planes x_i = v."""
    out = []
    for x, g in zip(model.symbols, model.g):
        try:
            cand = sp.solve(sp.Eq(g, 0), x)
        except NotImplementedError:       # transcendental g: keep the cube's own faces
            cand = [v for v in (sp.Integer(0), sp.Integer(1)) if g.subs(x, v) == 0]
        roots = [r for r in cand if r.is_real and 0 <= r <= 1]
        out.append(sorted(set(roots), key=float))
    return out


def find_equilibria(model: ODEModel, max_params: int = 6, tol: float = 1e-9
                    ) -> list[Equilibrium]:
    """All isolated equilibria of ``model`` in [0, 1]^n, sorted by coordinates.

    Exhaustive over the 3^n face choices; ``n > max_params`` raises GameError (too many
    faces for exact solving).  Continua of equilibria are skipped; see
    :func:`equilibria_and_continua`.
    """
    return equilibria_and_continua(model, max_params, tol)[0]


def equilibria_and_continua(model: ODEModel, max_params: int = 6, tol: float = 1e-9
                            ) -> tuple[list[Equilibrium], list[dict[str, str]]]:
    """Isolated equilibria (as :func:`find_equilibria`) and the non-isolated solution
    families found, each as ``{name: expression}`` with free parameters."""
    n = model.n
    if n > max_params:
        raise GameError(f"exact equilibrium search covers 3^n faces; n={n} exceeds "
                        f"max_params={max_params}")
    xs = model.symbols
    fixed = face_values(model)
    reduced = [sp.cancel(r / g) if g != 0 else r for r, g in zip(model.rhs, model.g)]
    found: dict[tuple, dict[sp.Symbol, sp.Expr]] = {}
    continua: list[dict[str, str]] = []
    for choice in itertools.product(*[[None] + vals for vals in fixed]):
        sub = {x: v for x, v in zip(xs, choice) if v is not None}
        free = [x for x, v in zip(xs, choice) if v is None]
        eqs = [sp.numer(sp.together(reduced[i].subs(sub))) for i, v in enumerate(choice)
               if v is None]
        if any(e.is_number and e != 0 for e in eqs):
            continue
        eqs = [e for e in eqs if e != 0]
        sols = sp.solve(eqs, free, dict=True) if eqs else [{}]
        if eqs and len(free) > 0 and not sols:
            continue
        for s in sols:
            pt = dict(sub)
            pt.update({x: s.get(x, x) for x in free})
            if any(not (pt[x].free_symbols <= set()) for x in xs):
                continua.append({x.name: str(pt[x]) for x in xs})
                continue
            vals = [complex(sp.N(pt[x], 30)) for x in xs]
            if any(abs(v.imag) > tol or v.real < -tol or v.real > 1 + tol for v in vals):
                continue
            key = tuple(round(v.real, 9) for v in vals)
            if key not in found:
                found[key] = {x: sp.simplify(pt[x]) for x in xs}
    eqs_out = [classify(model, found[k], tol) for k in sorted(found)]
    return eqs_out, continua


def classify(model: ODEModel, exact: dict[sp.Symbol, sp.Expr], tol: float = 1e-9
             ) -> Equilibrium:
    """Eigen-decomposition and type of the equilibrium at ``exact`` coordinates."""
    xs = model.symbols
    J = np.array(model.jacobian.subs(exact).evalf(30).tolist(), dtype=complex).real
    lam, vec = np.linalg.eig(J)
    scale = max(1.0, float(np.max(np.abs(lam))) if lam.size else 1.0)
    kind = np.where(lam.real < -tol * scale, 0, np.where(lam.real > tol * scale, 1, 2))
    fixed = face_values(model)
    faces = []
    for i, x in enumerate(xs):
        v = exact[x]
        if any(sp.simplify(v - w) == 0 for w in fixed[i]):
            keep = [j for j in range(len(xs)) if j != i]
            sub = J[np.ix_(keep, keep)]
            faces.append(FaceSpectrum(x.name, v, np.linalg.eigvals(sub) if keep else
                                      np.zeros(0, complex), complex(J[i, i])))
    point = {x.name: float(sp.N(exact[x])) for x in xs}
    eq = Equilibrium(point, {x.name: exact[x] for x in xs}, lam, vec,
                     int((kind == 0).sum()), int((kind == 1).sum()), int((kind == 2).sum()),
                     tuple(faces))
    return _with_type(eq, kind, tol * scale)


def _with_type(eq: Equilibrium, kind: NDArray, tol: float) -> Equilibrium:
    lam = eq.eigenvalues
    s, u, c = eq.stable_dim, eq.unstable_dim, eq.centre_dim
    head = ("non-hyperbolic" if c else "saddle" if s and u else "sink" if s else "source")
    parts = []
    for k, word, dim in ((0, "stable", s), (1, "unstable", u), (2, "centre", c)):
        if not dim:
            continue
        sel = lam[kind == k]
        notes = []
        if np.any(np.abs(sel.imag) > tol):
            notes.append("oscillatory")
        for f in eq.faces:
            if (len(f.in_plane) == dim and _same(f.in_plane, sel, tol)):
                notes.append(f"in {f.plane}")
        parts.append(f"{dim}-D {word}" + (f" ({', '.join(notes)})" if notes else ""))
    return replace(eq, type=f"{head}: " + ", ".join(parts))


def _same(a: NDArray, b: NDArray, tol: float) -> bool:
    a = np.sort_complex(np.asarray(a))
    b = np.sort_complex(np.asarray(b))
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= 1e3 * tol))
