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

Arguments left out take the experiment's defaults.  Unknown tables, keys or arguments raise
one :class:`~games.GameError` naming the key and the allowed ones.

Cells are the Cartesian product of the grid axes in sorted axis-name order (each axis in
the order written), with the replicate index innermost.  Cell ``i`` gets
``SeedSequence(base_seed).spawn(n_cells)[i]``, so a cell's result depends only on the config,
never on the number of workers or the order in which cells finish.  The ``cell_id`` is a
hash of the experiment, the cell's full arguments, its replicate and the base seed.

Store: a Parquet *dataset directory* (chosen over Zarr because each cell is one small row
with mixed types, and a directory of files gives atomic per-cell writes without locking):
``_sweep.json`` holds the canonical config; each finished cell is one file
``cell-<index>-<cell_id>.parquet`` written to a temporary name and then linked into place
(never replacing an existing file).  ``pandas.read_parquet(dir)`` opens the directory
directly (files starting with ``_`` or ``.`` are ignored); :func:`load_results` also unifies
schemas when cells return different columns (e.g. an ``fp`` sweep over several games).
pandas and pyarrow are imported only here, on use.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from games import GameError

from dynamics.sweep.experiments import get_experiment

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
        return int(np.prod([len(v) for v in self.grid.values()], dtype=np.int64)) * \
            self.replicates

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


def _unknown(key: str, where: str, allowed: Any) -> GameError:
    return GameError(f"unknown key {key!r} in {where}; allowed: {', '.join(allowed)}")


def parse_config(data: dict, base_dir: Path | None = None) -> SweepConfig:
    """Validate a config dict (as read from TOML) and return a :class:`SweepConfig`."""
    for t in data:
        if t not in TABLES:
            raise _unknown(t, "the sweep file (tables)", TABLES)
        if not isinstance(data[t], dict):
            raise GameError(f"[{t}] must be a table")
    sw = data.get("sweep", {})
    for k in sw:
        if k not in SWEEP_KEYS:
            raise _unknown(k, "[sweep]", SWEEP_KEYS)
    if "experiment" not in sw:
        raise GameError("[sweep] needs experiment = NAME")
    exp = get_experiment(sw["experiment"])
    seed, reps = sw.get("base_seed", 0), sw.get("replicates", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise GameError(f"base_seed={seed!r} is outside the allowed range [0, 2^63)")
    if isinstance(reps, bool) or not isinstance(reps, int) or not 1 <= reps <= 10**6:
        raise GameError(f"replicates={reps!r} is outside the allowed range [1, 1000000]")
    fixed_raw, grid_raw = data.get("fixed", {}), data.get("grid", {})
    for where, table in (("[fixed]", fixed_raw), ("[grid]", grid_raw)):
        for k in table:
            if k == "seed":
                raise GameError(f"{where} key 'seed': seeds come from [sweep] base_seed via "
                                f"SeedSequence.spawn; use replicates = N for several seeds")
            if k not in exp.params:
                raise _unknown(k, f"{where} (experiment {exp.name!r})", exp.params)
    both = sorted(set(fixed_raw) & set(grid_raw))
    if both:
        raise GameError(f"key {both[0]!r} is in both [fixed] and [grid]")
    fixed = {k: exp.params[k].convert(v, k) for k, v in fixed_raw.items()}
    grid = {}
    for axis in sorted(grid_raw):
        vals = grid_raw[axis]
        if not isinstance(vals, list) or not vals:
            raise GameError(f"[grid] {axis} must be a non-empty list of values")
        conv = [exp.params[axis].convert(v, axis) for v in vals]
        seen = [json.dumps(v) for v in conv]
        dup = next((v for i, v in enumerate(vals) if seen[i] in seen[:i]), None)
        if len(set(seen)) < len(seen):
            raise GameError(f"[grid] {axis} lists the value {dup!r} twice")
        grid[axis] = conv
    out = Path(sw["output"]) if "output" in sw else None
    if out is not None and base_dir is not None and not out.is_absolute():
        out = base_dir / out
    desc = sw.get("description", "")
    cfg = SweepConfig(exp.name, fixed, grid, seed, reps, out, str(desc))
    if exp.check is not None:
        for cell in cfg.cells():
            exp.check(cell.params)
    return cfg


def load_config(path: str | os.PathLike) -> SweepConfig:
    """Read and validate a sweep TOML file; ``output`` defaults to ``<stem>.parquet``."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise GameError(f"sweep file {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise GameError(f"sweep file {str(path)!r} is a folder; allowed: a TOML file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise GameError(f"sweep file {str(path)!r} is not valid TOML (UTF-8): {exc}") from None
    cfg = parse_config(data, path.parent)
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


def open_store(path: str | os.PathLike, config: SweepConfig) -> dict[str, Path]:
    """Create the store or check that it holds this sweep; returns the finished cells
    (cell_id -> file).  A store of a different sweep raises GameError (never overwritten)."""
    path = Path(path)
    meta = path / CONFIG_FILE
    canon = config.canonical()
    if path.exists() and not path.is_dir():
        raise GameError(f"output {str(path)!r} exists and is not a sweep directory")
    if meta.exists():
        stored = json.loads(meta.read_text())
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
        _atomic_write(meta, json.dumps({"format": FORMAT, "config": canon,
                                        "description": config.description},
                                       indent=2).encode())
    return {p.stem.rsplit("-", 1)[-1]: p for p in path.glob("cell-*.parquet")}


def _atomic_write(target: Path, data: bytes | None = None, writer=None) -> bool:
    """Write to a temporary file in the same directory, then link it to ``target``.
    Returns False (and discards the new file) if ``target`` already exists."""
    tmp = target.with_name(f".tmp-{os.getpid()}-{target.name}")
    if writer is None:
        tmp.write_bytes(data)
    else:
        writer(tmp)
    try:
        os.link(tmp, target)  # atomic and never replaces an existing file
        return True
    except FileExistsError:
        return False
    except OSError:  # filesystems without hard links
        if target.exists():
            return False
        os.replace(tmp, target)
        return True
    finally:
        tmp.unlink(missing_ok=True)


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
    return _atomic_write(Path(path) / cell.filename, writer=lambda t: pq.write_table(table, t))


def load_results(path: str | os.PathLike):
    """All finished cells of a sweep as a pandas DataFrame, one row per cell, ordered by
    ``cell_index`` (columns: cell_id, cell_index, replicate, seed_entropy, seed_spawn_key,
    the experiment's arguments, its results, cell_seconds)."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    path = Path(path)
    if not (path / CONFIG_FILE).exists():
        raise GameError(f"{str(path)!r} is not a sweep output (no {CONFIG_FILE})")
    files = sorted(str(p) for p in path.glob("cell-*.parquet"))
    if not files:
        return pd.DataFrame()
    schema = pa.unify_schemas([pq.read_schema(f) for f in files])
    df = ds.dataset(files, schema=schema, format="parquet").to_table().to_pandas()
    return df.sort_values("cell_index", kind="stable").reset_index(drop=True)
