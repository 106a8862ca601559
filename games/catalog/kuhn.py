"""The Kuhn poker family: 2-player Kuhn, 3-player (ACPC) Kuhn, one-third street 3-player
Kuhn with pot ``P`` and its simplified variant SKP (Billingham, sections 2 and 3).

All payoffs are net chips: a player's share of what the winner takes minus everything the
player put in (stake in the pot and bets).  For the one-third street games each player's
stake is ``P/3``, so the expected net payoff over the 24 deals equals Billingham's
ex-showdown expectation (checking down is worth 0 to everybody on average).
"""
from __future__ import annotations

from itertools import permutations
from typing import Callable, Mapping, Sequence

import sympy as sp

from pokerdyn.games.errors import GameError
from pokerdyn.games.tree import Game, GameBuilder, NamedParameter, ParameterDomain, infoset_label

# Card ranks, low to high; a deck of N cards is the N highest (4 cards: J Q K A).
RANK_ORDER = "23456789TJQKA"
RANKS = {c: i for i, c in enumerate(RANK_ORDER)}
MAX_CARDS = len(RANK_ORDER)
Allowed = Callable[[int, str, str], Sequence[str]]


def _free(player: int, card: str, public: str) -> Sequence[str]:
    return ("f", "c") if "b" in public else ("k", "b")


def showdown_payoffs(cards: Sequence[str], stakes: Sequence, active: Sequence[int]) -> tuple:
    """Net payoffs: the best card among ``active`` players takes everything staked."""
    pot = sp.Add(*stakes)
    winner = max(active, key=lambda p: RANKS[cards[p]])
    return tuple(sp.nsimplify(pot - s) if p == winner else -s for p, s in enumerate(stakes))


def _deal_game(name: str, n_players: int, deck: str, stake, bet, first_actor: int,
               allowed: Allowed, params=(), named=(), domains=None, description="",
               defaults=None) -> Game:
    b = GameBuilder(name, n_players, params)
    root = b.chance()
    deals = ["".join(d) for d in permutations(deck, n_players)]
    pr = sp.Rational(1, len(deals))
    for d in deals:
        _betting(b, root, d, pr, stake, bet, first_actor, allowed)
    return b.build(named=named, domains=domains or {}, description=description,
                   defaults=defaults)


def _betting(b: GameBuilder, root: int, deal: str, pr, stake, bet, first_actor: int,
             allowed: Allowed) -> None:
    """One betting round with a single bet under the chance outcome ``deal``: players
    ``first_actor..n-1`` may check or bet (earlier players are forced to check); after a bet
    the others call or fold in turn, then the best card among bettor and callers wins."""
    n = b.n_players

    def rec(par, v, p_edge, public, to_act, bettor, folded, called):
        if bettor is None and to_act == n:
            b.terminal(showdown_payoffs(deal, [stake] * n, range(n)), parent=par, via=v, prob=p_edge)
            return
        if bettor is not None and to_act == bettor:
            stakes = [stake + (bet if (p == bettor or p in called) else 0) for p in range(n)]
            b.terminal(showdown_payoffs(deal, stakes, [bettor, *called]), parent=par, via=v,
                       prob=p_edge)
            return
        p = to_act
        acts = tuple(allowed(p, deal[p], public))
        node = b.decision(p, infoset_label(p, deal[p], public), acts, parent=par, via=v,
                          prob=p_edge)
        nxt = (p + 1) % n
        for a in acts:
            if a == "k":
                rec(node, a, None, public + a, p + 1, None, folded, called)
            elif a == "b":
                rec(node, a, None, public + a, nxt, p, folded, called)
            elif a == "c":
                rec(node, a, None, public + a, nxt, bettor, folded, called + (p,))
            else:
                rec(node, a, None, public + a, nxt, bettor, folded + (p,), called)

    rec(root, deal, pr, "", first_actor, None, (), ())


def kuhn() -> Game:
    """2-player Kuhn poker: cards J<Q<K, ante 1 each, one bet of 1."""
    named = []
    for c in "JQK":
        named += [NamedParameter(f"b1_{c}", f"P1:{c}|", "b"),
                  NamedParameter(f"c1_{c}", f"P1:{c}|kb", "c"),
                  NamedParameter(f"b2_{c}", f"P2:{c}|k", "b"),
                  NamedParameter(f"c2_{c}", f"P2:{c}|b", "c")]
    return _deal_game("kuhn", 2, "JQK", sp.Integer(1), sp.Integer(1), 0, _free, named=named,
                      description="2-player Kuhn poker (J<Q<K, ante 1, one bet of 1)")


POT = sp.Symbol("P", positive=True)
POT_DOMAIN = {"P": ParameterDomain(0.0, float("inf"))}


def deck(cards: int) -> str:
    """The ``cards`` highest ranks, low to high (4 cards: ``JQKA``)."""
    if isinstance(cards, bool) or not isinstance(cards, int) or not 3 <= cards <= MAX_CARDS:
        raise GameError(f"cards={cards!r}: a 3-player Kuhn deck has an integer number of "
                        f"cards in 3..{MAX_CARDS}")
    return RANK_ORDER[-cards:]


def kuhn3(cards: int = 4) -> Game:
    """3-player full-street Kuhn poker with pot ``P``: each player stakes ``P/3``, one bet
    of 1, a deck of ``cards`` cards (default 4, J<Q<K<A).  ``P`` is a symbolic parameter
    whose default 3 is the ACPC game (ante 1 each); ``cards=N`` is Billingham's N-card game
    (arXiv 1802.04670)."""
    d = deck(cards)
    name = "kuhn3" if cards == 4 else f"kuhn3(cards={cards})"
    return _deal_game(name, 3, d, POT / 3, sp.Integer(1), 0, _free, params=(POT,),
                      domains=POT_DOMAIN, defaults={"P": 3},
                      description=f"3-player Kuhn poker ({cards} cards {d}, stake P/3 each, "
                                  "one bet of 1; P = 3 is the ACPC game)")


def _j_checks_or_folds(player: int, card: str, public: str) -> Sequence[str]:
    if card == "J":
        return ("f",) if "b" in public else ("k",)
    return _free(player, card, public)


# Full-street names: player i bets (b) only when checked to, at _BET_AT[i]; it faces a bet
# (calls: c) after the public histories _FACING[i].  b2_K is player 2's bet with K after
# player 1 checked, c1_K_kbf player 1's call with K after 'check, bet, fold'.
_BET_AT = ("", "k", "kk")
_FACING = (("kkb", "kbf", "kbc"), ("b", "kkbf", "kkbc"), ("kb", "bf", "bc"))


def full_street_named(cards: str) -> tuple[NamedParameter, ...]:
    """Named betting frequencies of every decision with cards ``cards``: ``b{i}_{c}`` (player
    ``i`` bets ``c`` when checked to) and ``c{i}_{c}_{h}`` (calls with ``c`` after ``h``)."""
    out = []
    for i in range(3):
        for c in cards:
            out.append(NamedParameter(f"b{i + 1}_{c}", f"P{i + 1}:{c}|{_BET_AT[i]}", "b"))
            out += [NamedParameter(f"c{i + 1}_{c}_{h}", f"P{i + 1}:{c}|{h}", "c")
                    for h in _FACING[i]]
    return tuple(out)


def kuhn3_full_simplified() -> Game:
    """Full-street simplified 3-player Kuhn poker (Billingham, arXiv 1707.01392): the game
    :func:`kuhn3` with pot ``P`` in which a player holding J must check or fold.  Its 36
    frequencies are named by :func:`full_street_named` (J has no choice)."""
    def build(named):
        return _deal_game("kuhn3-full-simplified", 3, "JQKA", POT / 3, sp.Integer(1), 0,
                          _j_checks_or_folds, params=(POT,), domains=POT_DOMAIN,
                          defaults={"P": 3}, named=named,
                          description="full-street simplified 3-player Kuhn poker with pot P "
                                      "(J checks or folds; Billingham arXiv 1707.01392)")

    # the frequencies in the tree's information-set order (the order of the state vector of
    # the ODE models and of seeded random starts, as before they had names)
    order = {s.label: k for k, s in enumerate(build(()).infosets)}
    return build(sorted(full_street_named("QKA"), key=lambda n: order[n.infoset]))


# Billingham section 2, points 1-4: the actions the paper's game fixes.
THIRD_STREET_RULES: Mapping[tuple[int, str, str], tuple[str, ...]] = {
    (2, "A", ""): ("b",), (2, "K", ""): ("k",),
    (0, "J", "b"): ("f",), (0, "A", "b"): ("c",),
    (1, "J", "bf"): ("f",), (1, "A", "bf"): ("c",),
    (1, "J", "bc"): ("f",), (1, "Q", "bc"): ("f",), (1, "A", "bc"): ("c",),
}
# Billingham section 3: SKP adds b_Q = 0, c_Q = 0, d_K = 1 (and hence o_K = 0).
SKP_RULES = {**THIRD_STREET_RULES,
             (2, "Q", ""): ("k",), (0, "Q", "b"): ("f",),
             (1, "K", "bf"): ("c",), (1, "K", "bc"): ("f",)}

THIRD_STREET_NAMED = (
    NamedParameter("b_J", "P3:J|", "b"), NamedParameter("b_Q", "P3:Q|", "b"),
    NamedParameter("c_Q", "P1:Q|b", "c"), NamedParameter("c_K", "P1:K|b", "c"),
    NamedParameter("d_Q", "P2:Q|bf", "c"), NamedParameter("d_K", "P2:K|bf", "c"),
    NamedParameter("o_K", "P2:K|bc", "c"),
)


def _ruled(rules: Mapping) -> Allowed:
    return lambda p, card, public: rules.get((p, card, public), _free(p, card, public))


def _third_street(name: str, rules: Mapping, named: Sequence[NamedParameter], desc: str) -> Game:
    keep = []
    for p in named:
        lbl = p.infoset
        player = int(lbl[1]) - 1
        card, public = lbl.split(":")[1].split("|")
        if len(rules.get((player, card, public), "xx")) > 1:
            keep.append(p)
    return _deal_game(name, 3, "JQKA", POT / 3, sp.Integer(1), 2, _ruled(rules), params=(POT,),
                      named=keep, domains=POT_DOMAIN,
                      description=desc)


def kuhn3_third(full: bool = False) -> Game:
    """One-third street 3-player Kuhn poker with pot ``P`` (Billingham section 2).

    Players 1 and 2 must check; player 3 checks or bets 1; then player 1 and player 2 call
    or fold.  With ``full=False`` the rules of the paper's section 2 (points 1-4) fix the
    obvious actions and leave the 7 parameters ``b_J b_Q c_Q c_K d_Q d_K o_K``; with
    ``full=True`` every information set has both actions (for dominance elimination).
    """
    rules = {} if full else THIRD_STREET_RULES
    return _third_street("kuhn3-third-full" if full else "kuhn3-third", rules, THIRD_STREET_NAMED,
                         "one-third street 3-player Kuhn poker with pot P (Billingham sec. 2)")


def kuhn3_third_full() -> Game:
    """:func:`kuhn3_third` with ``full=True``: every information set has both actions."""
    return kuhn3_third(full=True)


def skp() -> Game:
    """Simplified one-third street Kuhn poker (SKP, Billingham section 3): parameters
    ``b_J c_K d_Q`` with ``b_Q = c_Q = 0``, ``d_K = 1`` (and ``o_K = 0``)."""
    return _third_street("skp", SKP_RULES, THIRD_STREET_NAMED,
                         "simplified one-third street Kuhn poker, SKP (Billingham sec. 3)")
