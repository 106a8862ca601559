"""Game spec strings, OpenSpiel's convention: ``name`` or ``name(key=value,key=value)``.

Values are typed when parsed:

- integers ``3``, ``-1``; decimals ``0.5``, ``1e-3`` (floats); rationals ``1/2`` (exact
  :class:`fractions.Fraction`, which every factory can turn into a float or a sympy
  Rational without rounding);
- ``true`` / ``false`` (booleans);
- bare words ``half``, ``strong`` (strings: a letter or ``_`` first, then letters, digits,
  ``_``, ``-`` or ``.``);
- lists in brackets or parentheses, ``(2,3)`` or ``[0.25,0.25,0.25,0.25]``, as tuples (so
  that options stay hashable and games can be cached per spec); lists may nest.

Whitespace around names, keys, values and separators is ignored.  Limits (issue 33): a spec
has at most :data:`MAX_SPEC_CHARS` characters, lists nest at most :data:`MAX_DEPTH` deep,
integers (and the parts of a rational) have at most :data:`MAX_INT_DIGITS` digits, decimals
must be finite; error messages echo at most :data:`SHOWN_CHARS` characters of the spec.  :func:`format_spec`
writes the canonical form: options sorted by key, no spaces, booleans ``true``/``false``,
lists in parentheses, floats as Python's shortest round-trip ``repr``; so
``parse_spec(format_spec(name, opts)) == (name, opts)`` for every value this grammar can
express.  A spec beginning with ``openspiel:`` names a game imported from OpenSpiel and is
not parsed here: the text after the prefix is OpenSpiel's own game string (see
:data:`OPENSPIEL_PREFIX`).
"""
from __future__ import annotations

import math
import numbers
import re
from fractions import Fraction
from typing import Any, Mapping

from pokerdyn.games.errors import SHOWN_CHARS, GameError, shown

OPENSPIEL_PREFIX = "openspiel:"

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INT = re.compile(r"[+-]?\d+")
_RATIONAL = re.compile(r"([+-]?\d+)/(\d+)")
_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
MAX_SPEC_CHARS = 10_000
MAX_DEPTH = 16
MAX_INT_DIGITS = 100
_EXPECTED = ("expected name or name(key=value,...); allowed values: integers, decimals, "
             "rationals a/b, true/false, words, lists (a,b) or [a,b]")


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """``repr(text)``, cut to about ``limit`` characters (saying the full length) so that a
    huge spec is not echoed whole in a one-line error message (games.errors.shown)."""
    return shown(text, limit, quote=True)


def _fail(text: str, pos: int, what: str) -> GameError:
    shown = text[pos:pos + 20] or "end of text"
    return GameError(f"game spec {shorten(text)}: {what} at {shown!r} (position {pos}); "
                     f"{_EXPECTED}")


class _Parser:
    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def match(self, pattern: re.Pattern, what: str) -> str:
        self.skip()
        m = pattern.match(self.text, self.pos)
        if not m:
            raise _fail(self.text, self.pos, f"missing {what}")
        self.pos = m.end()
        return m.group(0)

    def expect(self, char: str, what: str) -> None:
        if self.peek() != char:
            raise _fail(self.text, self.pos, f"expected {what}")
        self.pos += 1

    def value(self, depth: int = 1) -> Any:
        c = self.peek()
        if c in "([":
            if depth > MAX_DEPTH:
                raise _fail(self.text, self.pos, f"lists nest more than the allowed "
                                                 f"{MAX_DEPTH} levels deep")
            close = ")" if c == "(" else "]"
            self.pos += 1
            items: list[Any] = []
            if self.peek() == close:
                self.pos += 1
                return ()
            while True:
                items.append(self.value(depth + 1))
                c2 = self.peek()
                if c2 == ",":
                    self.pos += 1
                    continue
                self.expect(close, f"',' or {close!r} closing the list")
                return tuple(items)
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in ",()[]=" \
                and not self.text[self.pos].isspace():
            self.pos += 1
        token = self.text[start:self.pos]
        if not token:
            raise _fail(self.text, start, "missing value")
        return _scalar(token, self.text, start)


def _integer(digits: str, token: str, text: str, pos: int) -> int:
    """An integer of at most MAX_INT_DIGITS digits (Python's own limit, 4300 digits, would
    otherwise speak of sys.set_int_max_str_digits)."""
    body = digits.lstrip("+-").lstrip("0") or "0"
    if len(body) > MAX_INT_DIGITS:
        raise _fail(text, pos, f"number {shorten(token, 30)} has {len(body):,} digits, "
                               f"outside the allowed range: integers of at most "
                               f"{MAX_INT_DIGITS} digits")
    return -int(body) if digits.startswith("-") else int(body)


def _scalar(token: str, text: str, pos: int) -> Any:
    if token in ("true", "false"):
        return token == "true"
    if _INT.fullmatch(token):
        return _integer(token, token, text, pos)
    m = _RATIONAL.fullmatch(token)
    if m:
        num, den = (_integer(g, token, text, pos) for g in m.groups())
        if den == 0:
            raise _fail(text, pos, f"rational {token!r} has denominator 0; allowed: a/b "
                                   "with b > 0")
        return Fraction(num, den)
    if _FLOAT.fullmatch(token):
        x = float(token)
        if not math.isfinite(x):
            raise _fail(text, pos, f"decimal {shorten(token, 30)} is outside the allowed "
                                   "range of finite numbers (|x| < 1.8e308)")
        return x
    if _WORD.fullmatch(token):
        return token
    raise _fail(text, pos, f"value {shorten(token, 30)} is not a number, true/false, word or list")


def parse_spec(text: str) -> tuple[str, dict[str, Any]]:
    """``"river(street=half,max_bets=2)"`` -> ``("river", {"street": "half", "max_bets": 2})``.

    Raises GameError naming the offending text and what is expected (empty name, a key
    without ``=``, a duplicate key, unbalanced parentheses, a value of no known form).
    ``openspiel:...`` specs are returned unparsed as ``("openspiel:...", {})``.
    """
    if not isinstance(text, str):
        raise GameError(f"game spec {shorten(repr(text))} is not a string; {_EXPECTED}")
    if len(text) > MAX_SPEC_CHARS:
        raise GameError(f"game spec {shorten(text)} is longer than the allowed "
                        f"{MAX_SPEC_CHARS:,} characters")
    if text.strip().startswith(OPENSPIEL_PREFIX):
        return text.strip(), {}
    p = _Parser(text)
    if not p.peek():
        raise _fail(text, p.pos, "empty game name")
    name = p.match(_NAME, "game name")
    opts: dict[str, Any] = {}
    if p.peek() == "(":
        p.pos += 1
        if p.peek() == ")":
            p.pos += 1
        else:
            while True:
                key_pos = p.pos
                key = p.match(_KEY, "option name")
                if p.peek() != "=":
                    raise _fail(text, p.pos, f"option {key!r} has no '=value'")
                p.pos += 1
                if key in opts:
                    raise _fail(text, key_pos, f"duplicate option {key!r}")
                opts[key] = p.value()
                if p.peek() == ",":
                    p.pos += 1
                    continue
                p.expect(")", "',' or ')' closing the options")
                break
    if p.peek():
        raise _fail(text, p.pos, "unexpected text after the game spec (unbalanced "
                                 "parentheses?)")
    return name, opts


def format_value(v: Any) -> str:
    """One option value in canonical spec syntax (see the module docstring)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, float):
        if not math.isfinite(v):
            raise GameError(f"option value {v!r} cannot be written in a game spec; allowed: "
                            "finite numbers")
        return repr(v)
    if isinstance(v, str):
        if v in ("true", "false") or not _WORD.fullmatch(v):
            raise GameError(f"option value {v!r} cannot be written in a game spec; allowed "
                            "words: a letter or '_' first, then letters, digits, '_', '-', '.'")
        return v
    if isinstance(v, (tuple, list)):
        return "(" + ",".join(format_value(x) for x in v) + ")"
    if isinstance(v, numbers.Integral):  # numpy integers
        return str(int(v))
    if isinstance(v, numbers.Real):  # numpy floats
        return format_value(float(v))
    raise GameError(f"option value {v!r} cannot be written in a game spec")


def format_spec(name: str, options: Mapping[str, Any] | None = None) -> str:
    """The canonical spec: ``name`` alone without options, else ``name(k=v,...)`` sorted by
    key."""
    if not options:
        return name
    for k in options:
        if not _KEY.fullmatch(k):
            raise GameError(f"option name {k!r} cannot be written in a game spec; allowed: "
                            "a letter or '_' first, then letters, digits, '_'")
    body = ",".join(f"{k}={format_value(options[k])}" for k in sorted(options))
    return f"{name}({body})"
