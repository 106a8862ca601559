"""Parameter sweeps: a TOML config and its grid of cells with their seeds.

Config (read with :mod:`tomllib`)::

    [sweep]
    experiment = "simulate"          # a name of dynamics.sweep.experiments.EXPERIMENTS
    output = "results.parquet"       # relative to the config file (default: <stem>.parquet)
    base_seed = 12345                # default 0
    replicates = 2                   # independent seeds per parameter point (default 1)
    description = "free text"        # optional, not part of the sweep's identity

    [fixed]                          # one value per argument
    rounds = 100000

    [grid]                           # one list of values per axis
    pot = [6, 9, 12]
    k = [0.001, 0.01]
    init = [[0.2, 0.3, 0.4], [0.8, 0.9, 0.5]]   # vector-valued arguments: lists of lists

Arguments left out take the experiment's defaults.  Unknown tables, keys or arguments, a
value of the wrong type (a table where a number belongs, a nested list, a date), out of
range or too large raise one :class:`~games.GameError` naming the file, the key and what
is allowed (:func:`check_schema`, then the experiment's converters), before any work.  A
sweep of more than MAX_CELLS cells or MAX_CORE_HOURS of estimated work (cells x the
experiment's cost per cell) is refused unless forced (:func:`check_size`).

Cells are the Cartesian product of the grid axes in sorted axis-name order (each axis in
the order written), with the replicate index innermost.  Cell ``i`` gets
``SeedSequence(base_seed).spawn(n_cells)[i]``, so a cell's result depends only on the config,
never on the number of workers or the order in which cells finish.  The ``cell_id`` is a
hash of the experiment, the cell's full arguments, its replicate and the base seed.

The result store of a sweep (a folder of cell files, resumed): :mod:`dynamics.sweep.store`.
"""
from __future__ import annotations

import datetime
import hashlib
import itertools
import json
import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from pokerdyn.games import GameError

from pokerdyn.dynamics.sweep.experiments import (CELL_OVERHEAD_S, EXPERIMENTS, allowed_values,
                                        get_experiment, short)
from pokerdyn.dynamics.summary import summary_repr

TABLES = ("sweep", "fixed", "grid")
SWEEP_KEYS = ("experiment", "output", "base_seed", "replicates", "description")


@dataclass(frozen=True)
class Cell:
    """One point of the grid: full experiment arguments, replicate, seed and identity."""

    index: int
    cell_id: str
    params: dict
    replicate: int
    seed: np.random.SeedSequence = field(repr=False)

    @property
    def filename(self) -> str:
        return f"cell-{self.index:06d}-{self.cell_id}.parquet"


@dataclass(frozen=True)
class SweepConfig:
    """A validated sweep: ``fixed`` and ``grid`` hold canonical values (converted by the
    experiment's converters; grid axes sorted by name)."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    experiment: str
    fixed: dict
    grid: dict
    base_seed: int = 0
    replicates: int = 1
    output: Path | None = None
    description: str = ""

    def canonical(self) -> dict:
        """What identifies the sweep's results (stored as ``_sweep.json``)."""
        return {"experiment": self.experiment, "fixed": self.fixed, "grid": self.grid,
                "base_seed": self.base_seed, "replicates": self.replicates}

    def n_cells(self) -> int:
        return math.prod(len(v) for v in self.grid.values()) * self.replicates

    def combinations(self, keys: tuple[str, ...]) -> Iterator[dict]:
        """Each combination of the values of ``keys`` over the grid, once (fixed values and
        defaults for keys that are not axes)."""
        exp = get_experiment(self.experiment)
        axes = [self.grid.get(k, [self.fixed.get(k, exp.params[k].default)]) for k in keys]
        for vals in itertools.product(*axes):
            yield dict(zip(keys, vals))

    def estimated_seconds(self) -> float:
        """Core-seconds of all cells by the experiment's cost model (cells x cost)."""
        exp = get_experiment(self.experiment)
        combos = list(self.combinations(exp.cost_keys))
        per = [CELL_OVERHEAD_S + (exp.cost(c) if exp.cost is not None else 0.0)
               for c in combos]
        return self.n_cells() * sum(per) / len(per)

    def cells(self) -> list[Cell]:
        """All cells in the fixed order, each with its spawned seed."""
        exp = get_experiment(self.experiment)
        defaults = {k: p.default for k, p in exp.params.items()}
        axes = list(self.grid)
        seeds = np.random.SeedSequence(self.base_seed).spawn(self.n_cells())
        points = itertools.product(*(self.grid[a] for a in axes), range(self.replicates))
        out = []
        for i, (*vals, rep) in enumerate(points):
            params = {**defaults, **self.fixed, **dict(zip(axes, vals))}
            key = json.dumps({"experiment": self.experiment, "params": params,
                              "replicate": rep, "base_seed": self.base_seed}, sort_keys=True)
            cid = hashlib.sha256(key.encode()).hexdigest()[:16]
            out.append(Cell(i, cid, params, rep, seeds[i]))
        return out

    def json_columns(self) -> frozenset[str]:
        """Arguments stored as JSON text: those with a list value in some cell."""
        exp = get_experiment(self.experiment)
        vals = {k: [p.default] for k, p in exp.params.items()}
        for k, v in self.fixed.items():
            vals[k] = [v]
        vals.update(self.grid)
        return frozenset(k for k, vs in vals.items() if any(isinstance(v, list) for v in vs))


# Limits of a sweep file, checked before any work (issue 33).
MAX_FILE_BYTES = 10 * 2**20  # the TOML file
MAX_TEXT = 4096              # characters of one string value (output, a game spec, ...)
MAX_DESCRIPTION = 65536      # characters of [sweep] description
MAX_AXIS = 1_000_000         # values of one grid axis
MAX_VECTOR = 64              # entries of one vector value (per-player lists)
# The size guard (check_size): refused unless forced (`pokerdyn sweep --force`) ...
MAX_CELLS = 100_000
MAX_CORE_HOURS = 100.0
# ... and refused even then: the store holds one file per cell, the runner one Cell each.
HARD_MAX_CELLS = 10_000_000
_TYPES = {"sweep": {"experiment": "a string (an experiment name)",
                    "output": f"a non-empty path (a string of at most {MAX_TEXT} characters)",
                    "base_seed": "an integer in [0, 2^63)",
                    "replicates": "an integer in [1, 1000000]",
                    "description": f"a string of at most {MAX_DESCRIPTION} characters"}}


def _unknown(key: str, where: str, allowed: Any) -> GameError:
    return GameError(f"unknown key {short(key)} in {where}; allowed: {', '.join(allowed)}")


def _kind(v: Any) -> str:
    """The TOML type of a value, in words."""
    if isinstance(v, bool):
        return "a boolean"
    for t, name in ((dict, "a table"), (list, "a list"), (str, "a string"),
                    (int, "an integer"), (float, "a float")):
        if isinstance(v, t):
            return name
    return "a date/time" if isinstance(v, (datetime.date, datetime.time)) else "a value"


def _bad_type(where: str, v: Any, allowed: str) -> GameError:
    return GameError(f"{where} = {short(v)} is {_kind(v)}; allowed: {allowed}")


def _check_text(where: str, v: Any, limit: int, allowed: str) -> None:
    if not isinstance(v, str):
        raise _bad_type(where, v, allowed)
    if len(v) > limit:
        raise GameError(f"{where} is a string of {len(v):,} characters; allowed: {allowed}")
    if "\0" in v:
        raise GameError(f"{where} = {short(v)} holds a NUL character; allowed: {allowed}")


def _check_value(where: str, v: Any, allowed: str) -> None:
    """One argument's value: a number, a string, a boolean (the converter decides which) or
    a flat list of them (a vector such as k = [0.1, 0.2, 0.3]); never a table, a date or a
    nested list."""
    if isinstance(v, list):
        if len(v) > MAX_VECTOR:
            raise GameError(f"{where} is a list of {len(v):,} values; allowed: {allowed}")
        for i, e in enumerate(v):
            _check_scalar(f"{where}[{i}]", e, allowed)
    else:
        _check_scalar(where, v, allowed)


def _check_scalar(where: str, v: Any, allowed: str) -> None:
    if isinstance(v, str):
        _check_text(where, v, MAX_TEXT, allowed)
    elif not isinstance(v, (bool, int, float)):
        raise _bad_type(where, v, allowed)


def check_schema(data: Any) -> None:
    """The structure of a sweep file as read from TOML, before any value is converted:
    allowed tables and keys, the type and size of each value (GameError naming the table,
    the key and what is allowed).  Values are checked by the experiment's converters."""
    if not isinstance(data, dict):
        raise GameError(f"the sweep file is {_kind(data)}; allowed: tables {', '.join(TABLES)}")
    for t, table in data.items():
        if t not in TABLES:
            raise _unknown(t, "the sweep file (tables)", TABLES)
        if not isinstance(table, dict):
            raise GameError(f"[{t}] must be a table; it is {_kind(table)} ({t} = "
                            f"{short(table)}); allowed: a table [{t}] of key = value lines")
    sw = data.get("sweep", {})
    for k in sw:
        if k not in SWEEP_KEYS:
            raise _unknown(k, "[sweep]", SWEEP_KEYS)
    if "experiment" not in sw:
        raise GameError(f"[sweep] needs experiment = NAME; allowed names: "
                        f"{', '.join(EXPERIMENTS)}")
    types = _TYPES["sweep"]
    if not isinstance(sw["experiment"], str):
        raise _bad_type("[sweep] experiment", sw["experiment"],
                        f"a string, one of: {', '.join(EXPERIMENTS)}")
    for k in ("base_seed", "replicates"):
        if k in sw and (isinstance(sw[k], bool) or not isinstance(sw[k], int)):
            raise _bad_type(f"[sweep] {k}", sw[k], types[k])
    if "output" in sw:
        _check_text("[sweep] output", sw["output"], MAX_TEXT, types["output"])
        if not sw["output"].strip():
            raise GameError(f"[sweep] output = {sw['output']!r} is empty; allowed: "
                            f"{types['output']}")
    if "description" in sw:
        _check_text("[sweep] description", sw["description"], MAX_DESCRIPTION,
                    types["description"])
    exp = get_experiment(sw["experiment"])
    for where, table in (("fixed", data.get("fixed", {})), ("grid", data.get("grid", {}))):
        for k, v in table.items():
            if k == "seed":
                raise GameError(f"[{where}] key 'seed': seeds come from [sweep] base_seed "
                                f"via SeedSequence.spawn; use replicates = N for several "
                                f"seeds (allowed keys: {', '.join(exp.params)})")
            if k not in exp.params:
                raise _unknown(k, f"[{where}] (experiment {exp.name!r})", exp.params)
            allowed = allowed_values(exp.params[k].convert)
            if where == "fixed":
                _check_value(f"[fixed] {k}", v, allowed)
                continue
            axis = f"a non-empty list of at most {MAX_AXIS:,} values, each {allowed}"
            if not isinstance(v, list):
                raise _bad_type(f"[grid] {k}", v, axis)
            if not v or len(v) > MAX_AXIS:
                raise GameError(f"[grid] {k} is a list of {len(v):,} values; allowed: {axis}")
            for i, e in enumerate(v):
                _check_value(f"[grid] {k}[{i}]", e, allowed)


def parse_config(data: dict, base_dir: Path | None = None, force: bool = False
                 ) -> SweepConfig:
    """Validate a config dict (as read from TOML) and return a :class:`SweepConfig`.

    Checked before any work, in this order: the file's structure (:func:`check_schema`),
    every value (the experiment's converters), the number of cells (:func:`check_size`,
    before any game is built), each combination of the values the experiment's ``check``
    depends on, and the estimated work (:func:`check_size`).  ``force`` lifts the size
    limits (not HARD_MAX_CELLS)."""
    check_schema(data)
    sw = data.get("sweep", {})
    exp = get_experiment(sw["experiment"])
    seed, reps = sw.get("base_seed", 0), sw.get("replicates", 1)
    if not 0 <= seed < 2**63:
        raise GameError(f"base_seed={short(seed)} is outside the allowed range [0, 2^63)")
    if not 1 <= reps <= 10**6:
        raise GameError(f"replicates={short(reps)} is outside the allowed range [1, 1000000]")
    fixed_raw, grid_raw = data.get("fixed", {}), data.get("grid", {})
    both = sorted(set(fixed_raw) & set(grid_raw))
    if both:
        raise GameError(f"key {both[0]!r} is in both [fixed] and [grid]; allowed: one of them")
    fixed = {k: exp.params[k].convert(v, k) for k, v in fixed_raw.items()}
    grid = {}
    for axis in sorted(grid_raw):
        vals = grid_raw[axis]
        conv = [exp.params[axis].convert(v, axis) for v in vals]
        seen: dict[str, int] = {}
        for i, v in enumerate(conv):
            key = json.dumps(v)
            if key in seen:
                raise GameError(f"[grid] {axis} lists the value {short(vals[i])} twice; "
                                f"allowed: distinct values")
            seen[key] = i
        grid[axis] = conv
    out = Path(sw["output"]) if "output" in sw else None
    if out is not None and base_dir is not None and not out.is_absolute():
        out = base_dir / out
    cfg = SweepConfig(exp.name, fixed, grid, seed, reps, out, sw.get("description", ""))
    check_size(cfg, force, cost=False)  # before any game is built
    if exp.check is not None:
        given = frozenset(fixed) | frozenset(grid)
        for values in cfg.combinations(exp.check_keys):
            exp.check(values, given)
    check_size(cfg, force)
    return cfg


def check_size(config: SweepConfig, force: bool = False, cost: bool = True) -> None:
    """Refuse a sweep of more than MAX_CELLS cells or more than MAX_CORE_HOURS of estimated
    work (cells x the experiment's cost per cell) unless ``force``; more than HARD_MAX_CELLS
    always.  ``cost=False``: the cell count only (cheap: no game is built)."""
    n = config.n_cells()
    if n > HARD_MAX_CELLS:
        raise GameError(f"the sweep has {n:,} cells; allowed: at most {HARD_MAX_CELLS:,} even "
                        f"with --force (one file and one seed per cell)")
    if force:
        return
    if n > MAX_CELLS:
        raise GameError(f"the sweep has {n:,} cells, over the limit of {MAX_CELLS:,}; allowed: "
                        f"fewer grid values or replicates, or --force to run it anyway")
    if not cost:
        return
    secs = config.estimated_seconds()
    if secs > MAX_CORE_HOURS * 3600:
        raise GameError(f"the sweep has {n:,} cells of about {secs / n:.3g} core-seconds each, "
                        f"about {secs / 3600:,.0f} core-hours in all, over the limit of "
                        f"{MAX_CORE_HOURS:g} core-hours; allowed: fewer cells, rounds or "
                        f"iterations, or --force to run it anyway")


def load_config(path: str | os.PathLike, force: bool = False) -> SweepConfig:
    """Read and validate a sweep TOML file (:func:`parse_config`; every error names the
    file); ``output`` defaults to ``<stem>.parquet``."""
    path = Path(path)
    name = f"sweep file {str(path)!r}"
    if path.is_file() and path.stat().st_size > MAX_FILE_BYTES:
        raise GameError(f"{name} has {path.stat().st_size:,} bytes; allowed: at most "
                        f"{MAX_FILE_BYTES:,}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GameError(f"{name} does not exist") from None
    except IsADirectoryError:
        raise GameError(f"{name} is a folder; allowed: a TOML file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise GameError(f"{name} is not valid TOML (UTF-8): {exc}") from None
    except (ValueError, RecursionError) as exc:  # an integer of > 4300 digits, deep nesting
        raise GameError(f"{name} is not valid TOML: {short(str(exc), 200)}; allowed: numbers "
                        f"of at most 4300 digits, lists nested at most a few levels") from None
    except OSError as exc:
        raise GameError(f"{name} cannot be read ({exc.strerror or exc}); allowed: a readable "
                        f"TOML file") from None
    try:
        cfg = parse_config(data, path.parent, force=force)
    except GameError as exc:
        raise GameError(f"{name}: {exc}") from None
    if cfg.output is None:
        cfg = SweepConfig(**{**cfg.__dict__, "output": path.with_suffix(".parquet")})
    return cfg


# --- storage -----------------------------------------------------------------------------
