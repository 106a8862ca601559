"""Exact results written as mathematics: ``0 < P < 5``, ``P >= (5 + sqrt(73))/2``, ``b_J free
in [0, 1/3]`` (the JSON records keep sympy's strings such as ``Interval.open(0, 5)``, which
parse back).  The text of the exact commands (``pokerdyn.api.exact_text``) and the figures'
labels are written with these."""
from __future__ import annotations

from typing import Any


def number_text(x: Any) -> str:
    """An exact number over one denominator: ``(5 + sqrt(73))/2``, ``5/2``, ``oo``."""
    import sympy as sp

    x = sp.sympify(x)
    if x.is_Add and x.is_number:
        return str(sp.together(x))
    return str(x)


def set_text(p_set: Any, var: str = "P", number: Any = None) -> str:
    """A set of pots as mathematics: ``P = 5``, ``0 < P < 5``, ``P >= (5 + sqrt(73))/2``,
    ``P in {2, 5}``, unions joined by ``or``; the whole real line is ``every P``.  ``number``
    writes each end point (default :func:`number_text`, exact; a figure's legend rounds)."""
    import sympy as sp

    number = number or number_text

    if isinstance(p_set, str):
        from pokerdyn.solvers.symbolic.axis.family_records import parse_set
        p_set = parse_set(p_set)
    if p_set is sp.S.Reals:
        return f"every {var}"
    if p_set is sp.S.EmptySet:
        return f"no {var}"
    if isinstance(p_set, sp.FiniteSet):
        pts = [number(v) for v in p_set]
        return f"{var} = {pts[0]}" if len(pts) == 1 else f"{var} in {{{', '.join(pts)}}}"
    if isinstance(p_set, sp.Union):
        return " or ".join(set_text(s, var, number) for s in p_set.args)
    if isinstance(p_set, sp.Interval):
        lo, hi = p_set.start, p_set.end
        lt = "<" if p_set.left_open else "<="
        rt = "<" if p_set.right_open else "<="
        if lo is sp.S.NegativeInfinity and hi is sp.S.Infinity:
            return f"every {var}"
        if lo is sp.S.NegativeInfinity:
            return f"{var} {rt} {number(hi)}"
        if hi is sp.S.Infinity:
            return f"{var} {'>' if p_set.left_open else '>='} {number(lo)}"
        return f"{number(lo)} {lt} {var} {rt} {number(hi)}"
    return f"{var} in {p_set}"


def interval_text(low: Any, high: Any, low_open: bool, high_open: bool) -> str:
    """``[0, 1/3]``, ``(0, 2/9]``: an interval of a free parameter."""
    return (f"{'(' if low_open else '['}{number_text(low)}, {number_text(high)}"
            f"{')' if high_open else ']'}")


def strategy_text(strategy: Any, intervals: Any = (), skip: Any = ()) -> str:
    """``b_J = 2/9, b_Q free in [0, 2/9], ...``: a family's strategy by parameter name
    (pairs or a dict; a free parameter is its own value), with each free parameter's
    interval where its constraints form one (``(name, low, high, low_open, high_open)``
    tuples); names in ``skip`` left out."""
    items = strategy.items() if hasattr(strategy, "items") else strategy
    ivs = {iv[0]: iv[1:] for iv in intervals}
    parts = []
    for n, v in items:
        if n in skip:
            continue
        if str(v) == n:
            parts.append(f"{n} free in {interval_text(*ivs[n])}" if n in ivs else f"{n} free")
        else:
            parts.append(f"{n} = {v}")
    return ", ".join(parts)
