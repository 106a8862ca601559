"""The one exception type of the core: an invalid game, parameter value or strategy, and
how its one-line messages show a value as written."""

SHOWN_CHARS = 60


class GameError(ValueError):
    """A game definition, parameter value or strategy is invalid."""


def shown(text: object, limit: int = SHOWN_CHARS, quote: bool = False) -> str:
    """``text`` for a one-line message: whole when at most ``limit`` characters, else its
    first ``limit // 2`` characters and its length, ``999999...(5,000 characters)``, so
    that a huge value is not echoed in full (issue 33).  ``quote``: the text in Python's
    quotes (``repr``), the length after them.  Not a string: its ``repr``, shortened; an
    integer too long to show by its size, ``<an integer of about 5,001 digits>`` (``repr``
    refuses more than 4,300 digits)."""
    if isinstance(text, int) and not isinstance(text, bool) and \
            text.bit_length() > 3 * limit:  # repr of an int over 4,300 digits raises
        sign = "-" if text < 0 else ""
        return f"{sign}<an integer of about {int(text.bit_length() * 0.30103) + 1:,} digits>"
    if not isinstance(text, str):
        text, quote = repr(text), False
    if len(text) <= limit:
        return repr(text) if quote else text
    head = text[:max(limit // 2, 1)]
    return f"{repr(head) if quote else head}...({len(text):,} characters)"
