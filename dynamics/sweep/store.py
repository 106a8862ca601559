"""The result store of a sweep (:mod:`dynamics.sweep.spec` reads the config and makes
the cells).

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

import json
import os
from pathlib import Path
from typing import Any

from pokerdyn.games import GameError
from pokerdyn.games.io.files import write_atomically

from pokerdyn.dynamics.sweep.experiments import short
from pokerdyn.dynamics.sweep.spec import Cell, SweepConfig

CONFIG_FILE = "_sweep.json"
FORMAT = 1
INSTALL_HINT = "pip install 'pokerdyn[dask]'"
# Columns of wall-clock measurements: the only ones that differ between two runs of a cell.
TIMING_COLUMNS = ("cell_seconds", "seconds", "rounds_per_second")


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
