"""The observation model derived from the SKP tree reproduces Billingham's Table 2
(Appendix D): the probability of each betting sequence B1..B5 under each deal D1..D10 and
the cards known to all players.  The paper lists deals with Player 3's card first, then
Players 1 and 2 (eq. (42)); the game labels deals in player order."""
import sympy as sp

from pokerdyn.dynamics.play.observation import HIDDEN, observation_model
from pokerdyn.games import get_game, param_symbols

G = get_game("skp")
S = param_symbols(G)
b, c, d = S["b_J"], S["c_K"], S["d_Q"]

# Billingham eq. (42) and (43)
DEALS = ["AJQ", "AQJ", "AKQ", "AKJ", "JAK", "JAQ", "JKA", "JQA", "JKQ", "JQK"]
SEQS = ["k", "bff", "bcf", "bfc", "bcc"]
# Billingham Table 2: TABLE[i][j] = (probability, public cards) of B_{i+1} under D_{j+1}
TABLE = [
    [(0, None)] * 4 + [(1 - b, D) for D in DEALS[4:]],
    [(1 - d, "XXX"), (1, "XXX"), ((1 - c) * (1 - d), "XXX"), (1 - c, "XXX"), (0, None),
     (0, None), (0, None), (0, None), (b * (1 - c) * (1 - d), "XXX"), (0, None)],
    [(0, None), (0, None), (c, "AKX"), (c, "AKX"), (b, "JAX"), (b, "JAX"), (0, None),
     (0, None), (b * c, "JKQ"), (0, None)],
    [(d, "AXQ"), (0, None), ((1 - c) * d, "AXQ"), (0, None), (0, None), (0, None),
     (b * (1 - c), "JXA"), (b, "JXA"), (b * (1 - c) * d, "JKQ"), (b, "JQK")],
    [(0, None)] * 6 + [(b * c, "JKA"), (0, None), (0, None), (0, None)],
]


def to_game(paper: str) -> str:
    """Paper order (P3, P1, P2) -> player order (P1, P2, P3)."""
    return paper[1] + paper[2] + paper[0]


def test_table2_probabilities_and_public_cards():
    om = observation_model(G)
    for i, seq in enumerate(SEQS):
        for j, deal in enumerate(DEALS):
            prob, public = TABLE[i][j]
            o = om.outcome(to_game(deal), seq)
            got = sp.Integer(0) if o is None else o.prob
            assert sp.expand(got - prob) == 0, (seq, deal, got, prob)
            if public is not None:
                assert o.public == to_game(public.replace("X", HIDDEN)), (seq, deal, o.public)


def test_uninformative_deals_and_totals():
    """AJK and AQK always go bet/fold/call (Appendix D); every deal's sequence probabilities
    sum to 1."""
    om = observation_model(G)
    for deal in ("AJK", "AQK"):
        assert om.outcome(to_game(deal), "bfc").prob == 1
    for deal in om.deal_labels:
        total = sum(o.prob for o in om.outcomes if o.deal == deal)
        assert sp.expand(total) == 1


def test_classes_merge_what_players_cannot_distinguish():
    """Appendix D: Players 2 and 3 cannot tell (B4, D1) from (B4, D3) (Player 1 folded J or
    K); Player 1, who holds the card, can."""
    om = observation_model(G)
    t1 = om.outcome(to_game("AJQ"), "bfc").terminal
    t3 = om.outcome(to_game("AKQ"), "bfc").terminal
    assert om.class_of[1, t1] == om.class_of[1, t3]
    assert om.class_of[2, t1] == om.class_of[2, t3]
    assert om.class_of[0, t1] != om.class_of[0, t3]
    # a checked-down hand shows every card: each deal its own class for everybody
    k = [o.terminal for o in om.outcomes if o.actions == "k"]
    for p in range(3):
        assert len({int(om.class_of[p, t]) for t in k}) == len(k)


def test_opponent_likelihood_drops_own_actions():
    """opp_prob[p] is prob without player p's own action factors (JKQ, bfc: b(1-c)d)."""
    o = observation_model(G).outcome(to_game("JKQ"), "bfc")
    assert sp.expand(o.opp_prob[2] - (1 - c) * d) == 0
    assert sp.expand(o.opp_prob[0] - b * d) == 0
    assert sp.expand(o.opp_prob[1] - b * (1 - c)) == 0
