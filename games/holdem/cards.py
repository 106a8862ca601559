"""Decks and exact deal enumeration for the hold'em-style builder.

A card is an integer ``rank * per_rank + i`` where ``per_rank`` is the number of suits (or of
identical copies when the deck has no suits) and ``i`` the suit (or copy) index, so
``rank = card // per_rank``.  Two enumerations of a deal of ``k`` cards:

* **merged** (``deal_multisets``): where suits do not matter, a deal is a multiset of ranks;
  its exact probability given the cards already out is the multivariate hypergeometric
  ``prod_r C(left_r, m_r) / C(left, k)`` (card removal), as in Mercer's ``makeAllDeals``.
  Dealt cards get copy indices in the order they leave the deck, so they stay distinct.
* **distinct** (``deal_distinct``): every set of ``k`` distinct remaining cards, each with
  probability ``1 / C(left, k)`` (``k = 1`` deals one card at a time, as OpenSpiel does).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb

from pokerdyn.games.errors import GameError

RANK_NAMES = "23456789TJQKA"
SUIT_NAMES = "cdhs"


@dataclass(frozen=True)
class Deck:
    """``ranks`` ranks, each with ``suits`` distinguishable suits or, when ``suits`` is None,
    ``copies`` indistinguishable copies.  Mercer's deck is ``Deck(ranks=5, copies=4)``
    (ranks named 2..6), Leduc's ``Deck(ranks=3, suits=2)``, hold'em's ``Deck(13, suits=4)``."""

    ranks: int
    suits: int | None = None
    copies: int = 1
    rank_names: str = RANK_NAMES

    def __post_init__(self):
        if not isinstance(self.ranks, int) or self.ranks < 1:
            raise GameError(f"deck ranks={self.ranks!r} is outside [1, inf)")
        if self.suits is not None and (not isinstance(self.suits, int) or self.suits < 1):
            raise GameError(f"deck suits={self.suits!r} is outside [1, inf) (or None)")
        if not isinstance(self.copies, int) or self.copies < 1:
            raise GameError(f"deck copies={self.copies!r} is outside [1, inf)")
        if self.suits is not None and self.copies != 1:
            raise GameError(f"deck copies={self.copies} needs suits=None (a suited deck has "
                            "one card per rank and suit)")

    @property
    def per_rank(self) -> int:
        """Cards of each rank."""
        return self.suits if self.suits is not None else self.copies

    @property
    def size(self) -> int:
        return self.ranks * self.per_rank

    def rank(self, card: int) -> int:
        return card // self.per_rank

    def rank_name(self, rank: int) -> str:
        return self.rank_names[rank] if rank < len(self.rank_names) else f"<{rank}>"

    def card_name(self, card: int) -> str:
        """``'5'`` (no suits) or ``'5h'`` (suits)."""
        name = self.rank_name(self.rank(card))
        if self.suits is None:
            return name
        s = card % self.per_rank
        return name + (SUIT_NAMES[s] if self.suits <= 4 else str(s))

    def cards_name(self, cards) -> str:
        return "".join(self.card_name(c) for c in cards)


def _check_k(left: int, k: int):
    if k > left:
        raise GameError(f"cannot deal {k} cards: only {left} remain in the deck")


def deal_multisets(deck: Deck, used: tuple[int, ...], k: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Deals of ``k`` cards merged by rank, given the cards ``used`` already out: a list of
    (cards, exact probability), cards sorted by rank, ordered by their rank multisets."""
    per = deck.per_rank
    out_count = [0] * deck.ranks
    for c in used:
        out_count[c // per] += 1
    left = [per - n for n in out_count]
    total = sum(left)
    _check_k(total, k)
    denom = comb(total, k)
    deals = []
    for ms in combinations_with_replacement(range(deck.ranks), k):
        num = 1
        for r in set(ms):
            num *= comb(left[r], ms.count(r))
        if num == 0:
            continue
        cards, taken = [], {}
        for r in ms:
            i = out_count[r] + taken.get(r, 0)
            taken[r] = taken.get(r, 0) + 1
            cards.append(r * per + i)
        deals.append((tuple(cards), Fraction(num, denom)))
    return deals


def deal_distinct(deck: Deck, used: tuple[int, ...], k: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Deals of ``k`` distinct cards given the cards ``used``: every ``k``-subset of the
    remaining cards (in increasing card order), each with probability ``1 / C(left, k)``."""
    gone = set(used)
    rest = [c for c in range(deck.size) if c not in gone]
    _check_k(len(rest), k)
    p = Fraction(1, comb(len(rest), k))
    return [(cs, p) for cs in combinations(rest, k)]


def deal(deck: Deck, used: tuple[int, ...], k: int, merge: bool):
    """:func:`deal_multisets` if ``merge`` else :func:`deal_distinct`."""
    return (deal_multisets if merge else deal_distinct)(deck, used, k)


__all__ = ["Deck", "deal", "deal_distinct", "deal_multisets"]
