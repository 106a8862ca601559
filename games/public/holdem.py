"""The public-tree form of a hold'em-style game straight from the builder's parameters
(:func:`games.holdem.build.build_game`'s deck, rounds, evaluator, players, collusion),
without the history tree.

The builder's public tree (:func:`games.holdem.build._public_tree`: betting templates and
one placeholder chance node per deal stage) is expanded by the board: a node at deal depth
``d`` becomes one public node per *space* of depth ``d``, the deal paths of depth ``d``
(:func:`games.holdem.deals.deal_paths`, rank multisets with exact card-removal
probabilities when ``merge``) grouped by the board dealt so far.  A player's private state
in a space is what she sees of the deal apart from the board: her hole cards (ranks when
merged) and, under strong collusion, her partners'.  Hole-card stages are chance nodes
with one public child (the private states refine); board stages have one child per board.
Terminals read the space's joint deals; showdowns a table of pot shares per (space,
active seats) scaled by the pot (collapsed boards: the exact expected shares of
:class:`games.holdem.collapse.BoardExpectation`).  Rows map to the history tree's
information sets exactly as :func:`build_game` numbers them.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerdyn.games.errors import GameError
from pokerdyn.games.holdem.betting import Round
from pokerdyn.games.holdem.build import _label, _public_tree, _shares, checked_setup
from pokerdyn.games.holdem.cards import Deck
from pokerdyn.games.holdem.collapse import BoardExpectation, trailing_round
from pokerdyn.games.holdem.deals import SHARED, deal_paths, views
from pokerdyn.games.holdem.evaluators import Evaluator
from pokerdyn.games.public.form import Assembler, PublicGame
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL, Infoset


class _Spaces:
    """Deal paths of every depth grouped by board: ``group[d][j]`` the space of path ``j``,
    ``members[d][s]`` its paths, ``priv[d][p][j]`` the private index of ``p`` within the
    space, ``count[d][s][p]``, ``parent_space[d][s]``, ``up[d][s][p]`` (private index ->
    parent space's index), ``kids[d][s]`` (spaces of depth d + 1 below ``s``)."""

    def __init__(self, paths, n: int, team: tuple, per: int):
        st = paths.stages
        self.group, self.members, self.priv, self.count = [], [], [], []
        self.parent_space, self.up, self.kids = [], [], []

        def key_of(x):
            return tuple(c // per for c in x) if per else x

        for d, cs in enumerate(paths.cards):
            board_idx = [i for i in range(d) if st[i].seat == SHARED]
            gid: dict = {}
            group = np.empty(len(cs), dtype=np.int64)
            for j, path in enumerate(cs):
                group[j] = gid.setdefault(tuple(key_of(path[i]) for i in board_idx), len(gid))
            S = len(gid)
            members = [np.flatnonzero(group == s) for s in range(S)]
            priv = np.empty((n, len(cs)), dtype=np.int64)
            count = np.zeros((S, n), dtype=np.int64)
            keys: list = [[None] * n for _ in range(S)]
            for p in range(n):
                seen = [i for i in range(d) if st[i].seat != SHARED and
                        (st[i].seat == p or (p in team and st[i].seat in team))]
                tabs = [dict() for _ in range(S)]
                for j, path in enumerate(cs):
                    s = group[j]
                    priv[p, j] = tabs[s].setdefault(tuple(key_of(path[i]) for i in seen),
                                                    len(tabs[s]))
                for s in range(S):
                    count[s, p] = len(tabs[s])
                    keys[s][p] = tabs[s]
            self.group.append(group)
            self.members.append(members)
            self.priv.append(priv)
            self.count.append(count)
            if d == 0:
                self.parent_space.append(np.full(S, -1))
                self.up.append([None] * S)
                self.kids.append(None)
                continue
            par = paths.parent[d]
            pgroup = self.group[d - 1]
            pspace = np.full(S, -1, dtype=np.int64)
            ups = [[np.full(count[s, p], -1, dtype=np.int64) for p in range(n)]
                   for s in range(S)]
            for j in range(len(cs)):
                s, jp = group[j], par[j]
                ps = pgroup[jp]
                if pspace[s] not in (-1, ps):
                    raise AssertionError("a board space with two parent spaces")
                pspace[s] = ps
                for p in range(n):
                    ups[s][p][priv[p, j]] = self.priv[d - 1][p, jp]
            self.parent_space.append(pspace)
            self.up.append(ups)
            kids = [[] for _ in range(len(self.members[d - 1]))]
            for s in range(S):
                kids[pspace[s]].append(s)
            self.kids.append(None)
            self.kids[d - 1] = kids


def public_from_builder(deck: Deck, rounds: Sequence[Round], evaluator: Evaluator,
                        n_players: int, name: str = "holdem", collusion: str | None = None,
                        colluders: Sequence[int] | None = None, merge: bool = True,
                        collapse: bool | None = None, **_ignored) -> PublicGame:
    """The public-tree form of ``build_game(deck, rounds, evaluator, n_players, ...)`` (same
    arguments; module docstring), its rows mapped to that game's information sets."""
    rounds, team, stages = checked_setup(deck, rounds, n_players, collusion, colluders)
    n = n_players
    merged = bool(merge and not evaluator.suited)
    stop = trailing_round(rounds, merged, evaluator, collapse)
    flat = tuple(s for st in stages[:stop] for s in st)
    paths = deal_paths(deck, flat, merged)
    pub = _public_tree(rounds, n, stages, stop)
    per = deck.per_rank if merged else 0
    strong_team = team if collusion == "strong" else ()
    sp = _Spaces(paths, n, strong_team, per)

    # history-tree information-set numbering, exactly as build_game
    vids, vtabs = zip(*(views(paths, p, strong_team, per) for p in range(n)))
    vcount = [[int(ids.max()) + 1 if ids.size else 0 for ids in vids[p]] for p in range(n)]
    ibase, n_inf = {}, 0
    name_of = (lambda r: deck.rank_name(r)) if merged else deck.card_name
    infosets = []   # build_game's, labels and actions, for reports by label
    for v, k in enumerate(pub.kind):
        if k == DECISION:
            ibase[v] = n_inf
            p, d = pub.player[v], pub.depth[v]
            n_inf += vcount[p][d]
            infosets.extend(Infoset(_label(name_of, flat, p, strong_team, view, pub.hist[v]),
                                    p, pub.actions[v]) for view in vtabs[p][d])

    # chance weights of the deal paths (exact, rounded once)
    weight = [np.array([float(f) for f in fr]) for fr in paths.frac]

    sets = sorted({pub.active[v] for v, k in enumerate(pub.kind)
                   if k == TERMINAL and sum(pub.active[v]) > 1})
    final = len(flat)
    share_rows = None
    if sets:
        if stop is None:
            share_tab = _shares(deck, evaluator, paths, n, sets)     # (sets, paths, n)
            share_rows = lambda i: share_tab[i]                       # noqa: E731
        else:
            board = BoardExpectation(deck, evaluator, paths, n,
                                     sum(rnd.shared_cards for rnd in rounds[stop:]))
            share_rows = lambda i: (lambda nd: nd[0] / float(nd[1]))(  # noqa: E731
                board.shares(sets[i]))
    share_cache: dict = {}
    tables: dict = {}
    joints: dict = {}
    asm = Assembler(n)
    tm = list(team)

    def joint(d, s):
        key = (d, s)
        if key not in joints:
            m = sp.members[d][s]
            joints[key] = asm.add_joint(sp.priv[d][:, m].T, weight[d][m])
        return joints[key]

    def table(d, s, act):
        key = (d, s, act)
        if key not in tables:
            i = sets.index(act)
            if i not in share_cache:
                share_cache[i] = np.asarray(share_rows(i), dtype=np.float64)
            rows = share_cache[i][sp.members[d][s]].copy()
            if collusion in ("weak", "strong", "pot") and tm:
                rows[:, tm] = rows[:, tm].mean(axis=1, keepdims=True)
            tables[key] = asm.add_table(rows)
        return tables[key]

    def payoff(v):
        contrib = np.array([float(c) for c in pub.contrib[v]])
        pot = contrib.sum()
        act = pub.active[v]
        c = contrib.copy()
        if collusion in ("weak", "strong") and tm:
            c[tm] = c[tm].mean()
        if sum(act) > 1:
            return pot, -c
        gross = np.array(act, dtype=np.float64) * pot
        if collusion == "pot" and tm:
            gross[tm] = gross[tm].mean()
        pay = gross - contrib
        if collusion in ("weak", "strong") and tm:
            pay[tm] = pay[tm].mean()
        return 0.0, pay

    def hist_label(v):
        return "/".join(" ".join(h) for h in pub.hist[v]) if pub.hist[v] else ""

    kids_of = [[] for _ in pub.kind]
    for v in range(1, len(pub.kind)):
        kids_of[pub.parent[v]].append(v)

    # iterative expansion (parents before children): (builder node, space, parent, edge)
    stack = [(0, 0, -1, -1)]
    while stack:
        v, s, par, e = stack.pop()
        d = pub.depth[v]
        k = pub.kind[v]
        cnt = sp.count[d][s]
        up = None
        if par >= 0 and pub.kind[pub.parent[v]] == CHANCE:
            up = sp.up[d][s]
        label = hist_label(v)
        if k == DECISION:
            p = pub.player[v]
            rows = np.full(cnt[p], -1, dtype=np.int32)
            m = sp.members[d][s]
            rows[sp.priv[d][p, m]] = ibase[v] + vids[p][d][m]
            me = asm.add(DECISION, par, e, cnt, up, actor=p, n_actions=len(pub.actions[v]),
                         row_infoset=rows, label=label)
            kids = sorted(kids_of[v], key=lambda c: pub.edge[c])
            for c in reversed(kids):
                stack.append((c, s, me, pub.edge[c]))
        elif k == CHANCE:
            me = asm.add(CHANCE, par, e, cnt, up, label=label)
            (c,) = kids_of[v]
            below = sp.kids[d][s]
            for i in reversed(range(len(below))):
                stack.append((c, below[i], me, i))
        else:
            act = pub.active[v]
            scale, off = payoff(v)
            if sum(act) > 1 and d != final:
                raise AssertionError("showdown before all cards are dealt")
            tab = table(d, s, act) if sum(act) > 1 else -1
            asm.add(TERMINAL, par, e, cnt, up, joint=joint(d, s), tab=tab, scale=scale,
                    offset=off, label=label)
    assert len(infosets) == n_inf
    return asm.finish(name, n_infosets=n_inf, infosets=tuple(infosets))


# Peak bytes of a public-form build per history node of the game it stands for (the history
# count is games.holdem.build.estimate_size's, milliseconds for any size), measured on
# mercer-mmh: 3 players 4.3e6 histories -> 103 MB traced peak (24 B per history, fixed costs
# dominating), 4 players 3.8e8 -> 1.58 GB peak RSS (4.1 B per history).  5 B bounds the
# 4-player build; the estimate refuses 5 players (2.5e10 histories: about 120 GB).
PUBLIC_BYTES_PER_HISTORY = 5
FIXED_BYTES = 200 * 2**20  # imports and the small games' fixed costs


def _setup(spec: str) -> tuple[tuple, dict]:
    """``build_game``'s arguments of the builder game ``spec`` (checked options)."""
    from pokerdyn.games.catalog.registry import GAME_OPTIONS, check_option
    from pokerdyn.games.catalog.spec import parse_spec, format_spec
    from pokerdyn.games.holdem import standard as S

    base, opts = parse_spec(spec)
    setups = {"mercer-smh": lambda **o: S._mercer_setup("smh", **o),
              "mercer-mmh": lambda **o: S._mercer_setup("mmh", **o, public=True),
              "leduc": S._leduc_setup}
    factories = {"mercer-smh": S.mercer_smh, "mercer-mmh": S.mercer_mmh, "leduc": S.leduc}
    if base not in setups:
        raise GameError(f"game {base!r} has no public-tree builder (builder games: "
                        f"{', '.join(setups)}); derive it from its compiled form")
    for k in opts:
        if k not in GAME_OPTIONS[base]:
            raise GameError(f"game {base!r} has no option {k}")
    opts = {k: check_option(base, k, v) for k, v in opts.items()}
    import inspect
    bound = inspect.signature(factories[base]).bind(**opts)
    bound.apply_defaults()
    args, kw = setups[base](**bound.arguments)
    kw.pop("description", None)
    kw["name"] = format_spec(base, opts)
    return args, kw


def public_size_estimate(spec: str) -> tuple[int, int]:
    """``(histories, bytes)``: the history count of the builder game ``spec`` (counted, not
    built) and the estimated peak bytes of building its public form."""
    from pokerdyn.games.holdem.build import estimate_size

    args, kw = _setup(spec)
    deck, rounds, evaluator, n = args
    est = estimate_size(deck, rounds, n, collapse=kw.get("collapse"), evaluator=evaluator,
                        merge=kw.get("merge", True))
    return est.nodes, FIXED_BYTES + PUBLIC_BYTES_PER_HISTORY * est.nodes


def check_public_size(spec: str) -> int:
    """Refuse, before anything is built, a public form whose build would not fit in the
    memory limit (games.size.resource_limits: ``--max-memory``, else the available memory)
    unless forced; returns the estimated bytes."""
    from pokerdyn.games.size import available_memory, current_limits, format_bytes, \
        format_count

    nodes, need = public_size_estimate(spec)
    ctx = current_limits()
    limit, source = (ctx.max_memory, "--max-memory") if ctx.max_memory is not None else \
        (available_memory(), "the available memory")
    if not ctx.force and need > limit:
        raise GameError(f"game {spec}: its public tree needs about {format_bytes(need)} to "
                        f"build (estimate: {format_count(nodes)} histories x "
                        f"{PUBLIC_BYTES_PER_HISTORY} bytes, measured on mercer-mmh); the "
                        f"allowed memory limit is {format_bytes(limit)} ({source}); set "
                        "--max-memory SIZE or --force to build anyway")
    return need


def public_game(spec: str) -> PublicGame:
    """The public-tree form of a builder game of the registry (``leduc``, ``mercer-smh``,
    ``mercer-mmh``, with options: ``mercer-mmh(players=3)``); GameError for other games
    (derive them from their compiled form: :func:`games.public.derive.public_from_compiled`)
    and for a form too large for the memory limit (:func:`check_public_size`).
    ``mercer-mmh`` accepts 4 and 5 players here (the history tree refuses them: too large)."""
    check_public_size(spec)
    args, kw = _setup(spec)
    return public_from_builder(*args, **kw)


__all__ = ["check_public_size", "public_from_builder", "public_game", "public_size_estimate"]
