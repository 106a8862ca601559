"""Numba kernels over the compiled arrays (games.compiled.CompiledGame).

Nodes are ordered parents-before-children, so reach probabilities come from one forward
loop.  Best responses are computed in *sequence form*: a forward pass over the nodes gives
every terminal's reach (the others' actions and chance) and the player's last own action
above it (its *sequence*), and adds reach times payoff to that sequence; a pass over the
player's information sets, children before parents (:func:`infoset_tree`), then backs the
sums up through the best action of each set.  Per node this holds one float64 (reach) and
one int32 (sequence), 12 bytes, only during the call: no per-player node order is kept.
A player's own reach is computed per information set (:func:`own_reach_sets`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

TERMINAL, CHANCE, DECISION = 0, 1, 2


@njit(cache=True)
def pass_buffers(n, n_inf, amax):
    """Work arrays of :func:`sequence_pass` and :func:`back_up`, shared over the players'
    passes: ``(reach, seq, direct, iparent, topo, cf_reach, cfv, br)``."""
    return (np.empty(n), np.empty(n, dtype=np.int32), np.empty(n_inf * amax + 1),
            np.empty(n_inf, dtype=np.int64), np.empty(n_inf, dtype=np.int32),
            np.zeros(n_inf), np.zeros((n_inf, amax)), np.empty(n_inf, dtype=np.int64))


@njit(cache=True)
def reach_probs(kind, player, parent, edge, infoset, chance_prob, sigma, exclude):
    """Reach probability of every node; the actions of player ``exclude`` (if >= 0) count
    as 1 (counterfactual reach); ``exclude = -2`` keeps only chance (pure chance reach)."""
    n = kind.shape[0]
    reach = np.empty(n)
    reach[0] = 1.0
    for i in range(1, n):
        p = parent[i]
        if kind[p] == CHANCE:
            w = chance_prob[i]
        elif exclude == -2 or player[p] == exclude:
            w = 1.0
        else:
            w = sigma[infoset[p], edge[i]]
        reach[i] = reach[p] * w
    return reach


@njit(cache=True)
def own_reach(kind, player, parent, edge, infoset, sigma, who):
    """Product of player ``who``'s own action probabilities on the path to each node."""
    n = kind.shape[0]
    reach = np.empty(n)
    reach[0] = 1.0
    for i in range(1, n):
        p = parent[i]
        if kind[p] == DECISION and player[p] == who:
            reach[i] = reach[p] * sigma[infoset[p], edge[i]]
        else:
            reach[i] = reach[p]
    return reach


@njit(cache=True)
def expected_payoffs(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                     payoffs, sigma):
    """Expected payoff of each player under the behaviour profile ``sigma``."""
    reach = reach_probs(kind, player, parent, edge, infoset, chance_prob, sigma, np.int64(-1))
    out = np.zeros(payoffs.shape[1])
    for i in range(kind.shape[0]):
        t = terminal_index[i]
        if t >= 0:
            r = reach[i]
            for q in range(payoffs.shape[1]):
                out[q] += r * payoffs[t, q]
    return out


@njit(cache=True)
def sequence_pass(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                  sigma, who, amax, reach, seq, direct, iparent, topo, cf_reach):
    """Forward pass for player ``who`` over buffers of the caller (``reach`` float64 and
    ``seq`` int32 per node; the rest per information set or sequence).

    Fills ``direct[1 + I * amax + a]`` with the sum over terminals whose last own action is
    ``(I, a)`` of the others' and chance's reach times ``who``'s payoff (``direct[0]``: no own
    action above), ``iparent[I]`` with the parent sequence ``I' * amax + a'`` of each of
    ``who``'s sets (-1 at the top), ``topo`` with ``who``'s sets in order of first node
    (parents before children), and ``cf_reach[I]`` with each of ``who``'s sets'
    counterfactual reach (other rows of ``cf_reach`` are left untouched).
    Returns the number of ``who``'s information sets (the used length of ``topo``).
    """
    n = kind.shape[0]
    direct[:] = 0.0
    iparent[:] = -2
    reach[0] = 1.0
    seq[0] = -1
    m = 0
    for i in range(n):
        if i > 0:
            p = parent[i]
            if kind[p] == CHANCE:
                reach[i] = reach[p] * chance_prob[i]
                seq[i] = seq[p]
            elif player[p] == who:
                reach[i] = reach[p]
                seq[i] = infoset[p] * amax + edge[i]
            else:
                reach[i] = reach[p] * sigma[infoset[p], edge[i]]
                seq[i] = seq[p]
        k = kind[i]
        if k == TERMINAL:
            direct[seq[i] + 1] += reach[i] * payoffs[terminal_index[i], who]
        elif k == DECISION and player[i] == who:
            I = infoset[i]
            if iparent[I] == -2:
                iparent[I] = seq[i]
                topo[m] = I
                m += 1
                cf_reach[I] = reach[i]
            else:
                cf_reach[I] += reach[i]
    return m


@njit(cache=True)
def payoff_scale(payoffs):
    """The game's payoff scale, ``max |payoff|`` (0 for a game without payoffs): the unit
    of the best response's tie tolerance (:func:`back_up`).  Computed once per entry
    (solvers.evaluation, a solver's ``advance``), not per node."""
    s = 0.0
    for t in range(payoffs.shape[0]):
        for q in range(payoffs.shape[1]):
            if abs(payoffs[t, q]) > s:
                s = abs(payoffs[t, q])
    return s


@njit(cache=True)
def back_up(sigma, legal, direct, iparent, topo, m, cfv, br, best, scale):
    """Counterfactual action values ``cfv[I, a]`` of the player's sets ``topo[:m]``,
    children first: the set's own terminals (``direct``) plus the value of each child set,
    which is the ``sigma``-weighted sum of its action values or, with ``best``, their
    maximum (the first maximising legal action is stored in ``br``: a pure best response).
    An action replaces the best so far only when its value is larger by more than
    ``1e-14 * (scale + |best so far|)``, ``scale`` the game's payoff scale
    (:func:`payoff_scale`): relative to the payoffs, so ties are broken alike for payoffs
    of 1e-100 and 1e100 (an absolute 1e-14 picked a worse action of a game scaled by
    1e-100, a negative NashConv, and was below rounding at 1e100; issue 33).  Counterfactual
    values are at most ``scale`` in size, so this stays within rounding of the maximum;
    a game of scale 1 compares exactly as before.
    Returns the value at the root: the player's expected payoff under ``sigma``, or her
    best-response value.  Kernels pass ``best`` as ``np.bool_(...)``: a literal True or
    False is typed as a literal, and each would compile a signature of its own (so do
    ``reach_probs``' ``exclude`` as ``np.int64``; tests/test_arrays.py counts them)."""
    amax = cfv.shape[1]
    for k in range(m):
        I = topo[k]
        for a in range(amax):
            cfv[I, a] = direct[1 + I * amax + a]
    root = direct[0]
    for k in range(m - 1, -1, -1):
        J = topo[k]
        if best:
            b = -1
            val = -np.inf
            for a in range(amax):
                if legal[J, a] and (b < 0 or cfv[J, a] > val + 1e-14 * (scale + abs(val))):
                    val = cfv[J, a]
                    b = a
            br[J] = b
        else:
            val = 0.0
            for a in range(amax):
                if legal[J, a]:
                    val += sigma[J, a] * cfv[J, a]
        s = iparent[J]
        if s >= 0:
            cfv[s // amax, s % amax] += val
        else:
            root += val
    return root


@njit(cache=True)
def own_reach_sets(sigma, iparent, topo, m, amax, out):
    """``out[I]``: the player's own reach of each set in ``topo[:m]`` (parents first)."""
    for k in range(m):
        J = topo[k]
        s = iparent[J]
        out[J] = 1.0 if s < 0 else out[s // amax] * sigma[s // amax, s % amax]


@njit(cache=True)
def _sequence_sums(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                   sigma, who, amax, direct, iparent, topo, cf_reach):
    # the per-node buffers (12 bytes a node) live only during this call
    n = kind.shape[0]
    return sequence_pass(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                         payoffs, sigma, who, amax, np.empty(n), np.empty(n, dtype=np.int32),
                         direct, iparent, topo, cf_reach)


@njit(cache=True)
def best_response(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                  legal, sigma, who, scale=-1.0):
    """Pure best response of player ``who`` to ``sigma``; ``scale``: the game's payoff
    scale (:func:`payoff_scale`, computed here when negative; loops pass it once).

    Returns ``(value, br, cf)``: the best-response value, the chosen action per
    information set (-1 for other players' sets) and the counterfactual action values
    ``cf[I, a]`` (opponents' and chance reach times payoff, summed over the set's nodes).
    """
    n_inf, amax = legal.shape
    direct = np.empty(n_inf * amax + 1)
    iparent = np.empty(n_inf, dtype=np.int64)
    topo = np.empty(n_inf, dtype=np.int32)
    m = _sequence_sums(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                       payoffs, sigma, who, amax, direct, iparent, topo, np.zeros(n_inf))
    cf = np.zeros((n_inf, amax))
    br = np.full(n_inf, -1, dtype=np.int64)
    if scale < 0.0:
        scale = payoff_scale(payoffs)
    value = back_up(sigma, legal, direct, iparent, topo, m, cf, br, np.bool_(True), scale)
    return value, br, cf


@njit(cache=True)
def regrets(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs, legal,
            sigma, scale=-1.0):
    """Each player's best-response value minus her expected payoff under ``sigma``: one
    forward pass per player (buffers shared, 12 bytes a node), both values backed up from
    the same sequence sums; ``scale`` as in :func:`best_response`."""
    if scale < 0.0:
        scale = payoff_scale(payoffs)
    n = kind.shape[0]
    n_inf, amax = legal.shape
    reach, seq, direct, iparent, topo, cf_reach, cfv, br = pass_buffers(n, n_inf, amax)
    out = np.empty(payoffs.shape[1])
    for who in range(payoffs.shape[1]):
        m = sequence_pass(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                          payoffs, sigma, who, amax, reach, seq, direct, iparent, topo,
                          cf_reach)
        ev = back_up(sigma, legal, direct, iparent, topo, m, cfv, br, np.bool_(False), scale)
        out[who] = back_up(sigma, legal, direct, iparent, topo, m, cfv, br, np.bool_(True),
                           scale) - ev
    return out


@njit(cache=True)
def infoset_tree(kind, player, parent, edge, infoset, n_inf, amax, who):
    """``(iparent, topo)`` of player ``who`` (see :func:`sequence_pass`), ``topo`` trimmed."""
    n = kind.shape[0]
    seq = np.empty(n, dtype=np.int32)
    iparent = np.full(n_inf, -2, dtype=np.int64)
    topo = np.empty(n_inf, dtype=np.int32)
    seq[0] = -1
    m = 0
    for i in range(n):
        if i > 0:
            p = parent[i]
            seq[i] = infoset[p] * amax + edge[i] if (kind[p] == DECISION and
                                                     player[p] == who) else seq[p]
        if kind[i] == DECISION and player[i] == who and iparent[infoset[i]] == -2:
            iparent[infoset[i]] = seq[i]
            topo[m] = infoset[i]
            m += 1
    return iparent, topo[:m].copy()


def infoset_trees(cg) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per player of a CompiledGame: the parent sequence of every information set (-1 at
    the top, -2 for other players' sets), the player's sets parents first (padded with
    -1) and their number; cached (a few bytes per information set)."""
    got = cg.cache.get("infoset_trees")
    if got is None:
        n_inf, amax = cg.legal.shape
        trees = [infoset_tree(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, n_inf, amax, p)
                 for p in range(cg.n_players)]
        topo = np.full((cg.n_players, n_inf), -1, dtype=np.int32)
        for p, (_, t) in enumerate(trees):
            topo[p, :t.shape[0]] = t
        got = (np.stack([ip for ip, _ in trees]), topo,
               np.array([t.shape[0] for _, t in trees], dtype=np.int64))
        cg.cache["infoset_trees"] = got
    return got


def game_payoff_scale(cg) -> float:
    """:func:`payoff_scale` of a compiled game, computed once and kept in ``cg.cache`` (its
    payoffs are read-only): the evaluation functions and FP's ``advance`` ask on every call."""
    got = cg.cache.get("payoff_scale")
    if got is None:
        got = cg.cache["payoff_scale"] = float(payoff_scale(cg.payoffs))
    return got
