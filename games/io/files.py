"""Writing output files atomically: a reader (or an interrupted run) never sees a partial
file, and a failed write leaves nothing behind."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable


def write_atomically(path: str | os.PathLike, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` on a temporary path beside ``path`` (same folder, so the rename is
    atomic; same suffix, so writers that pick a format by suffix still do), then rename it to
    ``path``.  Missing folders are created; the file gets the usual permissions (umask)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp-{os.getpid()}{path.suffix}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


__all__ = ["write_atomically"]
