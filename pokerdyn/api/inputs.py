"""Checked inputs of the front door (and so of the command line): games from spec strings
or .efg files, exact pots, numbers, integers and lists in a range, output paths checked before
any work and written atomically, JSON files read with one-line errors.

Every check raises :class:`~pokerdyn.games.GameError` (a ``ValueError``) with one line naming
the value and the allowed range: the line the command line prints before it exits 2."""
from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from pokerdyn.games.errors import GameError, shown

if TYPE_CHECKING:  # the tree (and sympy) load with the first game, not with this module
    from pokerdyn.games.tree import Game


def parse_float(text: str, what: str, low: float = -math.inf, high: float = math.inf,
                low_open: bool = False, high_open: bool = False,
                integer: bool = False) -> float:
    """A finite float (``integer``: with an integer value, "1e3" is 1000) in the given range,
    else GameError naming the value (shortened when long, games.errors.shown) and the
    range."""
    lb = "(" if low_open or math.isinf(low) else "["
    rb = ")" if high_open or math.isinf(high) else "]"
    rng = f"{lb}{_num(low)}, {_num(high)}{rb}"
    kind = "integers" if integer else "numbers"
    try:
        x = float(text)
    except (TypeError, ValueError):
        raise GameError(f"{what}={shown(text, quote=True)} is not a number; allowed: {kind} in "
                        f"{rng}") from None
    lo_ok = x > low if low_open else x >= low
    hi_ok = x < high if high_open else x <= high
    if not math.isfinite(x) or not (lo_ok and hi_ok):
        raise GameError(f"{what}={shown(text)} is outside the allowed range {rng}")
    if integer and not x.is_integer():
        raise GameError(f"{what}={shown(text)} is not an integer; allowed: integers in {rng}")
    return x


SEED_MAX = 2**32 - 1  # seeds: numpy's classic range, the same for every command


def _num(x: float) -> str:
    """A bound as written: integers in full (a seed's 4294967295, not 4.29497e+09)."""
    return str(int(x)) if math.isfinite(x) and float(x).is_integer() and abs(x) < 1e15 \
        else f"{x:g}"


def parse_int(text: str, what: str, low: float = -math.inf, high: float = math.inf) -> int:
    """An integer in ``[low, high]`` ("1e3" is 1000), else GameError naming the value."""
    return int(parse_float(text, what, low=low, high=high, integer=True))


def parse_list(text: str, what: str, counts: Sequence[int] | None = None,
               integer: bool = False, **kw: Any) -> list[Any]:
    """Comma-separated floats (``integer``: ints), each checked like :func:`parse_float`
    (:func:`parse_int`); with ``counts``, the number of values must be one of them, else at
    least one value."""
    one = parse_int if integer else parse_float
    out = [one(t.strip(), what, **kw) for t in text.split(",") if t.strip()]
    if len(out) not in (counts or range(1, len(out) + 1)):
        allowed = " or ".join(str(c) for c in counts) if counts else "1 or more"
        raise GameError(f"{what}={text!r} has {len(out)} value(s); allowed: {allowed} "
                        "comma-separated values")
    return out


def _existing_ancestor(path: Path) -> Path:
    p = path.absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def check_output_file(text: str, what: str) -> Path:
    """An output file path that can be written (missing folders are created on write),
    checked before any work: GameError if it is a folder or under a non-folder or a
    read-only folder."""
    path = Path(text)
    if not text or path.is_dir():
        raise GameError(f"{what}={text!r} is a folder; allowed: a file path in a writable "
                        "folder" if text else f"{what}='' is empty; allowed: a writable file path")
    _check_parent(path, text, what)
    return path


# Image formats of matplotlib's Agg, PDF, PS and SVG backends (the name's suffix picks one).
PLOT_SUFFIXES = ("", ".png", ".pdf", ".svg", ".svgz", ".eps", ".ps", ".jpg", ".jpeg", ".tif",
                 ".tiff", ".webp")


def check_plot_file(text: str, what: str = "plot") -> Path:
    """Like :func:`check_output_file`, and the suffix names an image format."""
    path = check_output_file(text, what)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise GameError(f"{what}={text!r} has an unknown image format; allowed suffixes: "
                        f"{', '.join(s for s in PLOT_SUFFIXES if s)}")
    return path


def check_output_dir(text: str, what: str) -> Path:
    """An output folder that exists and is writable, or can be created: GameError else."""
    path = Path(text)
    if not text or (path.exists() and not path.is_dir()):
        raise GameError(f"{what}={text!r} is a file; allowed: a writable folder (existing or "
                        "new)" if text else f"{what}='' is empty; allowed: a writable folder")
    if path.is_dir():
        if not os.access(path, os.W_OK | os.X_OK):
            raise GameError(f"{what}={text!r} is not a writable folder (permission denied)")
        return path
    _check_parent(path, text, what)
    return path


def _check_parent(path: Path, text: str, what: str) -> None:
    anc = _existing_ancestor(path.parent)
    if not anc.is_dir():
        raise GameError(f"{what}={text!r} is not writable: {str(anc)!r} is not a folder")
    if not os.access(anc, os.W_OK | os.X_OK):
        raise GameError(f"{what}={text!r} is not writable: folder {str(anc)!r} is read-only")


def atomic_write_text(path: str | os.PathLike, text: str, what: str | None = None) -> None:
    """Write ``text`` (UTF-8) atomically (games.io.files.write_atomically); a write that
    fails (a folder that turned out unwritable, a full disk) is GameError naming ``path``
    as given (``what``: the option that named it), nothing left behind."""
    from pokerdyn.games.io.files import write_atomically

    try:
        write_atomically(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    except OSError as exc:
        name = f"{what}={str(path)!r}" if what else repr(str(path))
        raise GameError(f"{name} is not writable ({exc.strerror or exc}); allowed: a file "
                        "path in a writable folder") from None


def read_json_file(path: str | os.PathLike, what: str) -> Any:
    """The JSON value of the file ``path`` (``what``: the option naming it); GameError with
    one line naming the file when it is not UTF-8, empty or not JSON (OSError when it
    cannot be read).  The caller checks the value's type."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError(f"{what}={str(path)!r} is not UTF-8 text; allowed: a JSON file") \
            from None
    if not text.strip():
        raise GameError(f"{what}={str(path)!r} is empty; allowed: a JSON file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameError(f"{what}={str(path)!r} is not valid JSON ({exc.msg} at line "
                        f"{exc.lineno}); allowed: a JSON file") from None


MAX_WORK_HOURS = 24  # iterative solves estimated longer than this need --force


def check_solver_work(force, methods: Sequence[str], iterations: int, n_nodes: int,
                      runs: int = 1, seconds: float | None = None) -> float:
    """The estimated CPU seconds of ``runs`` solves by each of ``methods`` of ``iterations``
    iterations (each stopped after ``seconds``, a time budget, when given) on a compiled
    game of ``n_nodes`` nodes (solvers.iterative.estimated_seconds; methods without
    iterations count 0); GameError naming the iterations, the estimate and the limit
    when it exceeds MAX_WORK_HOURS, unless ``force`` (``--force``; an argparse namespace
    with a ``force`` attribute is read the same; checked before any solve)."""
    from pokerdyn.solvers.iterative import estimated_seconds

    total = 0.0
    for m in methods:
        t = estimated_seconds(m, iterations, n_nodes)
        total += runs * (t if seconds is None else min(t, seconds))
    total = min(total, 1e300)
    if total > MAX_WORK_HOURS * 3600 and not getattr(force, "force", force):
        budget = "" if seconds is None else f", at most seconds={_num(seconds)} each"
        solves = f"{runs} solves x " if runs > 1 else ""
        raise GameError(f"iterations={iterations:,} of {'+'.join(methods)} ({solves}"
                        f"{n_nodes:,} nodes{budget}) is an estimated {total / 3600:,.3g} "
                        f"hours of work; allowed: at most {MAX_WORK_HOURS} hours "
                        "(fewer --iterations, or --force to run it anyway)")
    return total


GAME_HELP = ("game spec: name or name(key=value,...), e.g. 'river(street=half,max_bets=2)' "
             "(quote it; `pokerdyn games` lists the options), "
             "openspiel:<OpenSpiel game string>, or a Gambit .efg file")


def load_game(name: str, **options: Any) -> Game:
    """The game of a spec string (``river(street=half)``, ``openspiel:leduc_poker``; see
    games.catalog.spec) built with the extra keyword ``options``, or the game of a Gambit
    file when ``name`` ends in ``.efg`` (a missing file, or one that is not a game, is one
    line naming it)."""
    if not name.lower().endswith(".efg"):
        from pokerdyn.games.catalog.registry import make_game

        return with_notice(f"building {name}", lambda: make_game(name, **options),
                           lambda g: f"{g.n_nodes:,} nodes")
    if options:
        raise GameError(f"game options ({', '.join(options)}) do not apply to the file {name!r}")
    from pokerdyn.games.io.efg import game_from_efg

    if Path(name).is_dir():  # reading it said only "Is a directory"
        raise GameError(f"{name!r} is a folder; it must be a .efg file (a Gambit extensive-form "
                        "game in UTF-8 text)")
    try:
        text = Path(name).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise GameError(f"{name!r} is not a text .efg file (it must be UTF-8 text)") from None
    try:
        return game_from_efg(text, Path(name).stem)
    except GameError as exc:  # "efg: line 3: ..." -> "'f.efg', line 3: ..."
        msg = str(exc).removeprefix("efg: ")
        raise GameError(f"{name!r}{',' if msg.startswith('line ') else ':'} {msg}") from None


NOTICE_AFTER_S = 1.0  # long steps (a large game's build) say so on stderr after this


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal (where the CLI's notices go)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def with_notice(what: str, work: Callable[[], Any], summary: Callable[[Any], str]) -> Any:
    """``work()``; when it runs longer than NOTICE_AFTER_S, one line ``what ...`` on stderr
    (from a timer thread, so quick work prints nothing), then ``what: summary(result) in
    T s`` when done.  Library code prints nothing: the CLI wraps its long steps in this.
    Only on a terminal: where stderr is a file or a pipe (a script, a test), a step slowed
    by a loaded machine must not add lines before a one-line error."""
    import threading
    import time

    if not stderr_is_terminal():
        return work()
    shown = threading.Event()

    def notice():
        shown.set()
        print(f"pokerdyn: {what} ...", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    timer = threading.Timer(NOTICE_AFTER_S, notice)
    timer.daemon = True
    timer.start()
    try:
        out = work()
    finally:
        timer.cancel()
        timer.join()  # a notice being printed finishes before the summary
    if shown.is_set():
        print(f"pokerdyn: {what}: {summary(out)} in {time.perf_counter() - t0:.1f} s",
              file=sys.stderr, flush=True)
    return out


def refuse_lp_beyond_two_players(spec: str,
                                 needs: str = "the LP solver needs a 2-player zero-sum game"
                                 ) -> None:
    """The LP solver's player check, from the spec's ``players`` option before any build
    (a large game's build would come first; the solver checks the built game again)."""
    from pokerdyn.games.catalog.spec import parse_spec

    if spec.lower().endswith(".efg"):
        return
    try:
        _, opts = parse_spec(spec)
    except GameError:
        return  # the build reports a bad spec
    p = opts.get("players")
    if isinstance(p, int) and not isinstance(p, bool) and p != 2:
        raise GameError(f"{needs}; {spec!r} has {p} players (use fp, hedge or cfr+)")


def game_and_values(spec: "str | Game", pot: Any = None,
                    **options: Any) -> tuple[Game, dict[str, float]]:
    """The game (:func:`game`: a spec, a .efg file or a Game, built with ``options``) and its
    parameter values: ``pot`` (as ``--pot`` takes it, or a number; :func:`pot_value`) sets
    ``P``."""
    g = game(spec, **options)
    return g, ({} if pot is None else {"P": float(pot_value(g, pot))})


def require_pot(game: Game) -> None:
    """GameError when ``--pot`` is given for a game without a pot parameter P (the cause,
    before the value is read or any work is done)."""
    if "P" not in game.param_names:
        raise GameError(f"game {game.name!r} has no pot parameter P, so --pot does not "
                        f"apply (its game parameters: {', '.join(game.param_names) or 'none'})")


def parse_pot(text: str, game: Game | None = None):
    """The exact pot (a sympy number) from ``--pot``: decimals are exact (2.5 = 5/2) and
    expressions are allowed (``19/2``, ``(5+sqrt(73))/2``); GameError with one line naming
    the value and the allowed range for anything else (not a number, NaN, infinite,
    complex, <= 0, too large or too small (solvers.symbolic.model.pot_values.POT_RANGE), too
    large to evaluate (10**10**10), or outside the game's domain of P)."""
    from pokerdyn.solvers.symbolic.model.pot_values import exact_pot

    v = exact_pot(text)
    dom = game.domains.get("P") if game is not None else None
    if dom is not None and not dom.contains(float(v)):  # the value as written, not its float
        raise GameError(f"pot={text.strip()} is outside the allowed range {dom.describe()}")
    return v


def game(spec: "str | Game", **options: Any) -> Game:
    """The game named by ``spec``: a spec string (``"kuhn3"``, ``"river(street=half)"``,
    ``"openspiel:leduc_poker"``), a Gambit ``.efg`` file, or a :class:`Game` (returned as
    it is), built with the game ``options`` (the spec's keywords, e.g. ``max_bets=2``).

    Parameters
    ----------
    spec : str or Game
        The game's spec string (OpenSpiel's ``name(key=value,...)``) or .efg path.
    **options
        Spec options given as keywords; an option given both ways must agree.

    Returns
    -------
    Game
        The immutable game tree (``compile_game`` turns it into flat arrays).

    Raises
    ------
    GameError
        An unknown name or option, a bad value, a game too large to build.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> g = pd.game("skp")
    >>> g.n_players, g.param_names
    (3, ('P',))
    """
    from pokerdyn.games.tree import Game

    if isinstance(spec, Game):
        if options:
            raise GameError(f"game options ({', '.join(options)}) do not apply to a built game "
                            f"({spec.name!r}); give its spec string instead")
        return spec
    if not isinstance(spec, str):
        raise GameError(f"game={shown(spec)} is not a game; allowed: a spec string such as "
                        "'kuhn3', a .efg file path, or a Game")
    return load_game(spec, **options)


def pot_value(g: Game, pot: Any) -> Any:
    """The exact pot (a sympy number) of ``pot`` for the game ``g``: a string as ``--pot``
    takes it (``"19/2"``, ``"(5+sqrt(73))/2"``, decimals exact), an int, a Fraction or a
    sympy number; a float is the rational it rounds (the package's one rule,
    games.exact_values.rational_of_float: 2.5 -> 5/2, 0.1 -> 1/10).  GameError (one line)
    when the game has no pot ``P`` or the value is outside its range."""
    require_pot(g)
    if isinstance(pot, bool) or pot is None:
        raise GameError(f"pot={pot!r} is not a number; allowed: a positive number")
    if isinstance(pot, float):
        from pokerdyn.games.exact_values import rational_of_float
        text = str(rational_of_float(pot)) if math.isfinite(pot) else str(pot)
    else:
        text = str(pot)
    return parse_pot(text, g)


def build_limits(max_memory: Any = None, force: bool = False):
    """The context in which a front-door call builds games: under ``max_memory`` (bytes, or
    a size such as ``"2G"``) unless ``force`` (games.size.resource_limits); with neither
    given, the caller's limits stay (the command line sets its own --max-memory/--force)."""
    import contextlib

    if max_memory is None and not force:
        return contextlib.nullcontext()
    from pokerdyn.games.size import resource_limits
    return resource_limits(max_memory, bool(force))
