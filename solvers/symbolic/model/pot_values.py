"""Exact pot values from user input: ``"19/2"``, ``"2.5"`` (= 5/2), ``"(5+sqrt(73))/2"``
(Billingham's P*), numbers; one clear error for anything that is not a positive real in
the allowed range.

Text is parsed without evaluation and evaluated node by node with a size bound, so an
expression such as ``10**10**10`` (or a literal ``1e99999999``) is refused at once
instead of being computed."""
from __future__ import annotations

import math
import re
from typing import Any

import sympy as sp

from pokerdyn.games import GameError
from pokerdyn.games.errors import shown as _shown
from pokerdyn.games.exact_values import rational_of_float
from pokerdyn.solvers.symbolic.feasibility import algebraic


_CHARS = set("0123456789.eE+-*/() ")
MAX_POT_CHARS = 200
# Pots the commands take: exact arithmetic would go further, but the numeric solvers read
# P as a float (payoffs must stay far inside the float range: games.compiled caps them at
# 1e150) and a value needs no thousand digits to be a pot anyone means.
POT_MIN_EXP, POT_MAX_EXP = -100, 100
POT_RANGE = f"[1e{POT_MIN_EXP}, 1e{POT_MAX_EXP}]"
# the largest integer (numerator, denominator) an intermediate value of an expression may
# hold, in decimal digits: 10**10**10 stops here before it is computed
MAX_DIGITS = 1000
MAX_IRRATIONAL_POWER = 256  # (1+sqrt(2))**k: exact signs of larger powers take seconds
_LITERAL = re.compile(r"(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?")


def _allowed() -> str:
    return (f"allowed: pots in {POT_RANGE}, as numbers or exact expressions such as 19/2 "
            "or (5+sqrt(73))/2")


def _digits(v: sp.Expr) -> int:
    """Decimal digits of the largest integer in ``v`` (numerators and denominators)."""
    bits = max((max(abs(r.p).bit_length(), r.q.bit_length())
                for r in v.atoms(sp.Rational)), default=1)
    return int(bits * math.log10(2)) + 1


def _too_big(shown: str) -> GameError:
    return GameError(f"pot={shown} is too large to evaluate (an intermediate value over "
                     f"{MAX_DIGITS} digits); {_allowed()}")


def _power(b: sp.Expr, x: sp.Rational) -> sp.Expr:
    """``b ** x``, computed: called only once the size of the result is known to fit."""
    return sp.Pow(b, x)


def _bounded(e: sp.Basic, shown: str) -> sp.Expr:
    """Evaluate the unevaluated parse ``e`` bottom-up, refusing before any step whose
    result would exceed MAX_DIGITS digits."""
    if isinstance(e, (sp.Rational, sp.NumberSymbol)):
        return e
    if isinstance(e, (sp.Add, sp.Mul)):
        args = [_bounded(a, shown) for a in e.args]
        v = sp.Add(*args) if isinstance(e, sp.Add) else sp.Mul(*args)
    elif isinstance(e, sp.Pow):
        b, x = (_bounded(a, shown) for a in e.args)
        if not isinstance(x, sp.Rational) or x.q > 100:
            raise GameError(f"pot={shown} has the exponent {x}; allowed: rational exponents "
                            f"p/q with q <= 100, and pots in {POT_RANGE}")
        if b.is_zero or b in (sp.S.One, sp.S.NegativeOne):
            v = _power(b, x)
        elif _digits(b) * abs(x.p) > MAX_DIGITS or \
                (not b.is_Rational and abs(x.p) > MAX_IRRATIONAL_POWER):
            raise _too_big(shown)  # refused before the power is computed
        else:
            v = _power(b, x)
    else:
        raise GameError(f"pot={shown} is not a number; {_allowed()}")
    if _digits(v) > MAX_DIGITS:
        raise _too_big(shown)
    return v


def _parse(text: str, shown: str) -> sp.Expr:
    from tokenize import TokenError

    from sympy.parsing.sympy_parser import parse_expr, rationalize, standard_transformations

    if not text:
        raise GameError(f"pot='' is empty; {_allowed()}")
    for m in _LITERAL.finditer(text):
        if m.group(2) is not None and abs(int(m.group(2))) > MAX_DIGITS:
            raise GameError(f"pot={shown} is too large or too small (exponent {m.group(2)}); "
                            + _allowed())
    try:
        e = parse_expr(text, local_dict={"sqrt": sp.sqrt}, evaluate=False,
                       transformations=standard_transformations + (rationalize,))
    except (sp.SympifyError, SyntaxError, TypeError, ValueError, AttributeError, IndexError,
            TokenError):
        raise GameError(f"pot={shown!r} is not a number; {_allowed()}") from None
    if not isinstance(e, sp.Expr) or e.free_symbols:
        raise GameError(f"pot={shown!r} is not a number; {_allowed()}")
    return _bounded(e, shown)


def _check_range(v: sp.Expr, shown: str) -> None:
    """A finite number ``v`` of bounded size: GameError when it is negative or outside
    POT_RANGE, decided numerically (the exact sign of a large algebraic number costs
    seconds); 0 and non-real values are left to the exact checks."""
    import mpmath

    re = sp.re(sp.N(v, 30))  # 30 significant digits: the magnitude is right even at 1e-400
    if not re.is_Float or re == 0:
        return
    if re < 0:
        raise GameError(f"pot={shown} is outside the allowed range (0, inf)")
    lg = float(mpmath.log10(mpmath.mpf(re)))
    if lg > POT_MAX_EXP:
        raise GameError(f"pot={shown} is too large; {_allowed()}")
    if lg < POT_MIN_EXP:
        raise GameError(f"pot={shown} is too small; {_allowed()}")


def exact_pot(pot: Any) -> sp.Expr:
    """An exact positive real pot from a number or a string (``"19/2"``, ``"2.5"`` = 5/2,
    ``"(5+sqrt(73))/2"``); GameError naming the value and the allowed range otherwise (not
    a number, NaN, infinite, complex, not > 0, or, for text and floats, outside
    POT_RANGE or too large to evaluate)."""
    rng = "the allowed range (0, inf)"
    # as written, shortened when long (a 5,000-digit number is not repeated)
    shown = _shown(pot.strip(), 40) if isinstance(pot, str) else pot
    user = isinstance(pot, (str, float))
    if isinstance(pot, str):
        text = pot.strip()
        special = text.lower().lstrip("+-") in ("nan", "inf", "infinity")
        # numbers, + - * / ** ( ) and sqrt only: the parser reads forms such as 0x10 that
        # are no pot anyone means
        if not special and not set(text.replace("sqrt", "")) <= _CHARS:
            raise GameError(f"pot={shown!r} is not a number; {_allowed()}")
        if len(text) > MAX_POT_CHARS:
            raise GameError(f"pot={shown} is too long ({len(text)} characters); allowed: at "
                            f"most {MAX_POT_CHARS} characters, pots in {POT_RANGE}")
        if special:  # the parser reads these as symbols; float() reads them as non-finite
            raise GameError(f"pot={shown} is outside {rng}: not a finite number")
        v = _parse(text, shown)
    elif isinstance(pot, float):
        v = sp.nan if pot != pot else sp.oo if pot == float("inf") else -sp.oo \
            if pot == float("-inf") else rational_of_float(pot)
    else:
        v = sp.sympify(pot)
    if not v.is_number or v.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise GameError(f"pot={shown} is outside {rng}: not a finite number")
    if user:
        _check_range(v, shown)
    if v.is_real is False or (v.is_real is None and abs(sp.N(sp.im(v), 30)) > 1e-25):
        raise GameError(f"pot={shown} is not real; {rng} holds reals only")
    if v.is_real is None:
        v = sp.re(v)
    if algebraic.sign(v) <= 0:
        raise GameError(f"pot={shown} is outside {rng}")
    return v


INFINITE = ("oo", "inf", "infinity")  # B of A:B for the unbounded range P >= A


def pot_range(text: str, what: str = "--pots", *, unbounded: bool = False,
              closed: bool = False, rational: bool = False,
              check: Any = None) -> tuple[sp.Expr, sp.Expr]:
    """The one reader of a pot range ``A:B`` (``--pots`` of every command, and the
    ``(low, high)`` pot of the front door written as text): two pots read by
    :func:`exact_pot` (``check(text)``, when given, reads each instead: the game's domain
    check of ``--pot``), with ``A < B`` (``closed``: ``A <= B``); ``unbounded``: ``B`` may
    be ``oo`` (``inf``, ``infinity``: the range ``P >= A``, returned as ``sympy.oo``);
    ``rational``: both must be rational.  GameError with one line naming ``what`` and the
    value otherwise."""
    read = check or exact_pot
    parts = text.split(":") if isinstance(text, str) else []
    if len(parts) != 2:
        form = ("two exact pots, 0 < A <= B" if closed else
                "two numbers, A < B; B may be oo" if unbounded else "two numbers, A < B")
        raise GameError(f"{what}={text!r} is not a range A:B ({form})")
    a = read(parts[0].strip())
    b = sp.oo if unbounded and parts[1].strip().lower() in INFINITE else read(parts[1].strip())
    if closed:
        if (rational and not (a.is_Rational and b.is_Rational)) or b < a:
            raise GameError(f"{what}={text}: give rational pots A:B with 0 < A <= B")
        return a, b
    if not a < b:
        raise GameError(f"{what}={text} is an empty or reversed range; give A:B with A < B")
    if rational and not (a.is_Rational and (b is sp.oo or b.is_Rational)):
        raise GameError(f"{what}={text}: give rational pots A:B with A < B")
    return a, b
