"""Parameter sweeps: a TOML config, its grid of cells with their seeds, and the result store.

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

Store: a Parquet *dataset directory* (chosen over Zarr because each cell is one small row
with mixed types, and a directory of files gives atomic per-cell writes without locking):
``_sweep.json`` holds the canonical config; each finished cell is one file
``cell-<index>-<cell_id>.parquet`` written to a temporary name and then linked into place
(never replacing an existing file).  On resume each cell file is checked (non-empty, one
Parquet row of that cell); a bad one is renamed ``.invalid-<name>`` and computed again.
``pandas.read_parquet(dir)`` opens the directory directly (files starting with ``_`` or
``.`` are ignored); :func:`load_results` also unifies schemas when cells return different
columns (e.g. an ``fp`` sweep over several games).  pandas and pyarrow are imported only
here, on use.
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

from games import GameError
from games.io.files import write_atomically

from dynamics.sweep.experiments import (CELL_OVERHEAD_S, EXPERIMENTS, allowed_values,
                                        get_experiment, short)

TABLES = ("sweep", "fixed", "grid")
SWEEP_KEYS = ("experiment", "output", "base_seed", "replicates", "description")
CONFIG_FILE = "_sweep.json"
FORMAT = 1
# Columns of wall-clock measurements: the only ones that differ between two runs of a cell.
TIMING_COLUMNS = ("cell_seconds", "seconds", "rounds_per_second")
INSTALL_HINT = "pip install 'pokerdyn[dask]'"


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

def require_storage() -> None:
    """ImportError with the install hint unless pandas and pyarrow are importable."""
    for mod in ("pyarrow", "pandas"):
        try:
            __import__(mod)
        except ImportError:
            raise ImportError(f"pokerdyn sweep needs {mod}: {INSTALL_HINT}") from None


def _changed(old: Any, new: Any, prefix: str = "") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        return [c for k in sorted(set(old) | set(new))
                for c in _changed(old.get(k), new.get(k), f"{prefix}{k}.")]
    return [] if old == new else [prefix.rstrip(".")]


MAX_STATE_BYTES = 64 * 2**20  # _sweep.json: the canonical config (grid axes included)


def read_state(path: str | os.PathLike) -> dict:
    """The validated ``_sweep.json`` of the store ``path``: a UTF-8 JSON object with
    ``format`` = FORMAT and a ``config`` object (GameError naming the file otherwise)."""
    meta = Path(path) / CONFIG_FILE
    name = f"sweep state file {str(meta)!r}"
    fix = (f"; allowed: the JSON object that pokerdyn sweep writes (format {FORMAT}, config): "
           f"choose another output, or delete {str(path)!r} to start over")
    if meta.is_file() and meta.stat().st_size > MAX_STATE_BYTES:
        raise GameError(f"{name} has {meta.stat().st_size:,} bytes{fix}")
    try:
        text = meta.read_bytes().decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise GameError(f"{name} is not UTF-8 text{fix}") from None
    except json.JSONDecodeError as exc:
        what = "is empty" if not text.strip() else \
            f"is not valid JSON ({exc.msg} at line {exc.lineno})"
        raise GameError(f"{name} {what}{fix}") from None
    except (ValueError, RecursionError) as exc:  # huge integers, deep nesting
        raise GameError(f"{name} is not valid JSON ({short(str(exc), 100)}){fix}") from None
    except IsADirectoryError:
        raise GameError(f"{name} is a folder{fix}") from None
    except OSError as exc:
        raise GameError(f"{name} cannot be read ({exc.strerror or exc}){fix}") from None
    if not isinstance(data, dict):
        raise GameError(f"{name} holds a JSON {type(data).__name__}, not an object{fix}")
    fmt = data.get("format")
    if type(fmt) is not int or fmt != FORMAT:
        raise GameError(f"{name} has format {short(fmt)}{fix}")
    if not isinstance(data.get("config"), dict):
        raise GameError(f"{name} has no config object{fix}")
    return data


def check_cell_file(file: str | os.PathLike) -> str | None:
    """Why ``file`` is not a finished cell (None when it is): empty, not Parquet, not one
    row, or not the cell its name says (``cell-<index>-<cell_id>.parquet``)."""
    import pyarrow.parquet as pq

    file = Path(file)
    cell_id = file.stem.rsplit("-", 1)[-1]
    try:
        if file.stat().st_size == 0:
            return "empty"
        md = pq.read_metadata(file)
    except Exception as exc:  # noqa: BLE001 -- any unreadable file is "not a cell"
        return f"not a Parquet file: {short(' '.join(str(exc).split()), 100)}"
    if md.num_rows != 1:
        return f"{md.num_rows} rows instead of 1"
    names = md.schema.names
    if "cell_id" not in names or md.num_row_groups != 1:
        return "no cell_id column"
    stats = md.row_group(0).column(names.index("cell_id")).statistics
    if stats is not None and stats.has_min_max and stats.min != cell_id:
        return f"it holds cell {short(stats.min)}"
    return None


def open_store(path: str | os.PathLike, config: SweepConfig,
               set_aside: list[Path] | None = None) -> dict[str, Path]:
    """Create the store or check that it holds this sweep; returns the finished cells
    (cell_id -> file).  A store of a different sweep, or a corrupt ``_sweep.json``, raises
    GameError (never overwritten).  A cell file of this sweep that is not a finished cell
    (empty, truncated, ...: :func:`check_cell_file`) is renamed to ``.invalid-<name>``
    (ignored by readers) so that the cell is computed again; the renamed paths are appended
    to ``set_aside``."""
    path = Path(path)
    meta = path / CONFIG_FILE
    canon = config.canonical()
    if path.exists() and not path.is_dir():
        raise GameError(f"output {str(path)!r} exists and is not a sweep directory")
    if meta.exists() or meta.is_symlink():
        stored = read_state(path)
        diff = _changed(stored.get("config"), canon)
        if diff:
            raise GameError(f"output {str(path)!r} holds results of a different sweep "
                            f"(changed: {', '.join(diff)}); it is never overwritten: choose "
                            f"another output or delete it")
    elif path.exists() and any(path.iterdir()):
        raise GameError(f"output {str(path)!r} is a non-empty directory without {CONFIG_FILE}; "
                        f"refusing to write into it")
    else:
        path.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"format": FORMAT, "config": canon,
                           "description": config.description}, indent=2)
        write_atomically(meta, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    ids = {c.cell_id for c in config.cells()}
    done = {}
    for p in path.glob("cell-*.parquet"):
        cid = p.stem.rsplit("-", 1)[-1]
        if cid not in ids:
            continue  # not a cell of this sweep: never read, never touched
        if check_cell_file(p) is None:
            done[cid] = p
        else:
            bad = p.with_name(f".invalid-{p.name}")
            os.replace(p, bad)
            if set_aside is not None:
                set_aside.append(bad)
    return done


def cell_row(config: SweepConfig, cell: Cell, results: dict, seconds: float) -> dict:
    """One tidy row: identity, seed, every argument, the results and the cell's wall time."""
    row: dict[str, Any] = {"cell_id": cell.cell_id, "cell_index": cell.index,
                           "replicate": cell.replicate, "seed_entropy": config.base_seed,
                           "seed_spawn_key": cell.index}
    jcols = config.json_columns()
    row.update({k: json.dumps(v) if k in jcols else v for k, v in cell.params.items()})
    clash = sorted(set(row) & set(results))
    if clash:
        raise GameError(f"experiment {config.experiment!r} returns result columns that clash "
                        f"with argument columns: {', '.join(clash)}")
    row.update(results)
    row["cell_seconds"] = float(seconds)
    return row


def write_cell(path: str | os.PathLike, cell: Cell, row: dict) -> bool:
    """Write one finished cell atomically; False if it was already there (kept as is)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pylist([row])
    try:
        write_atomically(Path(path) / cell.filename, lambda t: pq.write_table(table, t),
                         exclusive=True)
    except FileExistsError:
        return False
    return True


def load_results(path: str | os.PathLike):
    """All finished cells of a sweep as a pandas DataFrame, one row per cell, ordered by
    ``cell_index`` (columns: cell_id, cell_index, replicate, seed_entropy, seed_spawn_key,
    the experiment's arguments, its results, cell_seconds).  A cell file that is not a
    finished cell raises GameError naming it (running the sweep again recomputes it)."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    path = Path(path)
    if not (path / CONFIG_FILE).exists():
        raise GameError(f"{str(path)!r} is not a sweep output (no {CONFIG_FILE})")
    read_state(path)
    files = sorted(str(p) for p in path.glob("cell-*.parquet"))
    for f in files:
        why = check_cell_file(f)
        if why is not None:
            raise GameError(f"cell file {f!r} is not a finished cell ({why}); allowed: "
                            f"finished cells only: run the sweep again, which recomputes it")
    if not files:
        return pd.DataFrame()
    schema = pa.unify_schemas([pq.read_schema(f) for f in files])
    df = ds.dataset(files, schema=schema, format="parquet").to_table().to_pandas()
    return df.sort_values("cell_index", kind="stable").reset_index(drop=True)
