"""Writing output files atomically: a reader (or an interrupted run) never sees a partial
file, and a failed write leaves nothing behind."""
from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import Callable


def write_atomically(path: str | os.PathLike, write: Callable[[Path], None],
                     exclusive: bool = False) -> Path:
    """Call ``write(tmp)`` on a temporary path beside ``path`` (same folder, so the rename is
    atomic; same suffix, so writers that pick a format by suffix still do), then rename it to
    ``path``.  Missing folders are created; the file gets the usual permissions (umask).
    ``exclusive``: never replace an existing ``path`` (FileExistsError, the new file is
    discarded); the temporary is hard-linked into place, atomic even against another
    process writing the same path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp-{os.getpid()}{path.suffix}")  # _TEMPORARY
    try:
        write(tmp)
        if not exclusive:
            os.replace(tmp, path)
            return path
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:  # a filesystem without hard links: check, then rename
            if path.exists():
                raise FileExistsError(errno.EEXIST, "file exists", str(path)) from None
            os.replace(tmp, path)
    except OSError as exc:  # name the path the caller gave, not the hidden temporary
        if exc.filename is not None and str(exc.filename) == str(tmp):
            raise type(exc)(exc.errno, exc.strerror, str(path)) from None
        raise
    finally:
        tmp.unlink(missing_ok=True)
    return path


# the names of write_atomically's temporaries (group 1: the writer's process id)
_TEMPORARY = re.compile(r"\..*\.tmp-(\d+)(\.[^.]*)?")


def remove_temporaries(folder: str | os.PathLike, pid: int) -> list[Path]:
    """Remove the temporaries that :func:`write_atomically` in process ``pid`` left below
    ``folder``: a process killed (SIGTERM, SIGKILL) between a write and its rename runs no
    cleanup.  Returns the paths removed."""
    gone = []
    for p in Path(folder).rglob(".*.tmp-*"):
        m = _TEMPORARY.fullmatch(p.name)
        if m and int(m.group(1)) == pid and p.is_file():
            p.unlink(missing_ok=True)
            gone.append(p)
    return gone


__all__ = ["remove_temporaries", "write_atomically"]
