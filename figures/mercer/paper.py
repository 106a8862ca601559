"""The numbers Mercer Hold'em's paper prints, and where each lives in our games.

Source: ``shared/papers/mercer_holdem_collusion.txt`` (Ullman), sections 4.2 and 4.3,
Tables 1-6 and 8 (Table 7's values are withheld from our copy); percentages of betting (a call counts as a bet, as in the paper).  A *cell* is an
information-set label of ours and the action whose probability the paper prints.  Labels
are those of :mod:`games.holdem` (``P2:35|b``: player 2 holds 3 5 after player 1 bet; in
Mercer Hold'em without a check a player who stays in must put in 4 chips, so a history in
which all stay in is ``b c b c`` in 2-player MMH).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import Game

HANDS = ("22", "23", "24", "25", "26", "33", "34", "35", "36", "44", "45", "46", "55", "56",
         "66")
ALWAYS_BET = ("22", "26", "33", "36", "44", "45", "46", "55", "56", "66")   # sec. 4.2
NEVER_BET = ("23", "24")                                                    # sec. 4.2

#: player 2's value of 2P-SMH (sec. 4.2) and of 2P-MMH (sec. 4.2), per hand in chips (antes)
VALUE_2P_SMH = 0.1
VALUE_2P_MMH = 0.4
#: the three players' payoffs in 3P-SMH (sec. 4.3)
PAYOFFS_3P_SMH = (-0.29, 0.008, 0.282)


@dataclass(frozen=True)
class PaperTable:
    """One printed table: ``rows`` (row name -> label template with ``{h}`` for the column),
    ``columns``, ``values`` (row name -> printed percentages), the game spec."""

    name: str
    caption: str
    game: str
    columns: tuple[str, ...]
    rows: dict
    values: dict


def _t(name, caption, game, columns, rows, values):
    cols = tuple(columns.split())
    vals = {r: tuple(float(x) for x in v.split()) for r, v in values.items()}
    return PaperTable(name, caption, game, cols, rows, vals)


TABLES: dict[str, PaperTable] = {t.name: t for t in (
    _t("1", "2P-SMH: betting percentages of the nontrivial hands", "mercer-smh(players=2)",
       "25 34 35", {"1st player": "P1:{h}|", "2nd player": "P2:{h}|b"},
       {"1st player": "66 65 100", "2nd player": "0 0 97"}),
    _t("2", "2P-MMH: first bet (player 2: after player 1 bet)", "mercer-mmh(players=2)",
       "22 23 24 25 26 34 35 36 45", {"1st player": "P1:{h}|", "2nd player": "P2:{h}|b"},
       {"1st player": "98.1 0.2 0.2 12.4 27.1 0.3 66.5 100 100",
        "2nd player": "46.2 0.2 0.3 0.5 1.0 0.5 0.9 34.6 46.2"}),
    _t("3", "2P-MMH: first post-flop bet holding 45, by flop", "mercer-mmh(players=2)",
       "22 23 26 33 36 46 56 66",
       {"1st player": "P1:45|b c b c/{h}:", "2nd player": "P2:45|b c b c/{h}:b"},
       {"1st player": "20.5 93.9 62.9 47.7 24.7 100 100 53.6",
        "2nd player": "30.0 22.7 34.9 7.6 46.1 60.9 98.1 33.8"}),
    _t("4", "3P-MMH: player 2's first bet", "mercer-mmh(players=3)",
       "22 23 24 25 26 34 35 36 45 46",
       {"1st player folds": "P2:{h}|f", "1st player bets": "P2:{h}|b"},
       {"1st player folds": "84.7 1.9 2.4 4.0 100 4.0 62.6 100 100 100",
        "1st player bets": "37.4 1.3 1.9 3.0 5.6 3.0 5.1 12.6 12.1 53.0"}),
    _t("5", "3P-MMH: first bet when no one has folded", "mercer-mmh(players=3)",
       "22 23 24 25 26 34 35 36 45 46",
       {"1st player": "P1:{h}|", "2nd player": "P2:{h}|b", "3rd player": "P3:{h}|b c"},
       {"1st player": "76.1 1.3 1.9 3.0 5.1 3.0 4.6 36.3 33.6 100",
        "2nd player": "37.4 1.3 1.9 3.0 5.6 3.0 5.1 12.6 12.1 53.0",
        "3rd player": "100 1.3 1.9 3.5 6.2 3.0 6.2 11.6 11.6 24.5"}),
    _t("6", "3P-MMH: player 3's first bet", "mercer-mmh(players=3)",
       "22 23 24 25 26 34 35 36 45 46",
       {"1st player folds": "P3:{h}|f b", "2nd player folds": "P3:{h}|b f"},
       {"1st player folds": "70.7 2.4 3.0 5.1 12.6 4.6 9.4 100 80.9 100",
        "2nd player folds": "20.7 2.4 3.0 4.6 9.9 4.6 8.3 16.9 16.9 76.6"}),
    _t("8a", "3P-MMH without collusion: player 3's first bet (Table 8, top)",
       "mercer-mmh(players=3)", "22 23 24 25 26 34 35 36 45 46",
       {"no folding": "P3:{h}|b c", "1st player folds": "P3:{h}|f b",
        "2nd player folds": "P3:{h}|b f"},
       {"no folding": "100 1.3 1.9 3.5 6.2 3.0 6.2 11.6 11.6 24.5",
        "1st player folds": "70.7 2.4 3.0 5.1 12.6 4.6 9.4 100 80.9 100",
        "2nd player folds": "20.7 2.4 3.0 4.6 9.9 4.6 8.3 16.9 16.9 76.6"}),
    _t("8b", "3P-MMH, players 1 and 2 in weak collusion: player 3's first bet (Table 8, "
       "bottom)", "mercer-mmh(players=3,collusion=weak,colluders=[1,2])",
       "22 23 24 25 26 34 35 36 45 46",
       {"no folding": "P3:{h}|b c", "1st player folds": "P3:{h}|f b",
        "2nd player folds": "P3:{h}|b f"},
       {"no folding": "100 2.0 2.0 3.7 6.5 3.1 6.5 12.7 12.7 36.4",
        "1st player folds": "30.2 2.5 3.1 5.9 13.8 5.4 9.9 100 68.6 100",
        "2nd player folds": "46.6 2.5 3.1 5.4 12.1 4.8 9.3 28.5 41.5 100"}),
)}


def cell_index(game: Game, label: str) -> int:
    """Information-set index of ``label`` (the bet/call is action 0 there, fold last)."""
    return game.infoset_index(label)


def table_cells(game: Game, table: PaperTable) -> dict:
    """``(row, column) -> information-set index`` of every printed cell."""
    return {(r, c): cell_index(game, tmpl.format(h=c))
            for r, tmpl in table.rows.items() for c in table.columns}


def table_frequencies(game: Game, table: PaperTable, sigma: NDArray[np.float64]) -> dict:
    """``(row, column) -> percentage of betting`` under the behaviour profile ``sigma``."""
    return {k: 100.0 * float(sigma[i, 0]) for k, i in table_cells(game, table).items()}


def java_deal_frequencies(counts: tuple[int, ...], size: int) -> dict[tuple[int, ...], Fraction]:
    """The deal weights of the paper's Java code (``PokerGame.makeAllDeals``) in exact
    arithmetic: rank multisets of ``size`` cards (ascending) drawn from a deck with
    ``counts[r]`` cards of rank r, each extension by rank r weighted
    ``size / remaining * count(r) / (cards of r in the deal)``."""
    if size == 0:
        return {(): Fraction(1)}
    out = {}
    for deal, f in java_deal_frequencies(counts, size - 1).items():
        left = list(counts)
        for r in deal:
            left[r] -= 1
        for r in range(deal[-1] if deal else 0, len(counts)):
            if left[r] > 0:
                new = deal + (r,)
                out[new] = f * Fraction(size, sum(left)) * Fraction(left[r], new.count(r))
    return out


__all__ = ["ALWAYS_BET", "HANDS", "NEVER_BET", "PAYOFFS_3P_SMH", "PaperTable", "TABLES",
           "VALUE_2P_MMH", "VALUE_2P_SMH", "cell_index", "java_deal_frequencies", "table_cells",
           "table_frequencies"]
