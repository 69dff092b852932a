"""The state file: where the app keeps its runtime snapshot between runs, read and written
under the library's files rule (ours or untouched, never through a symbolic link).

- Read the package's one way (``cinematic._files``): never through a symbolic link, without
  blocking, only a regular file (a FIFO, a device, a socket or a directory is named, never
  opened or read) of at most ``MAX_BYTES``, read whole; strict JSON (UTF-8, finite numbers,
  64-bit integers, no lone surrogate, at most 64 levels deep) that looks like a runtime
  snapshot. Anything else is *foreign*: the app starts fresh with a one-line note saying why
  and never writes that path.
- Written atomically: a new temporary file in the same directory (``O_EXCL | O_NOFOLLOW``,
  mode 0600), written whole, ``fsync``-ed, renamed over the state file, then the directory is
  ``fsync``-ed. A reader (or the next start after a SIGKILL) sees the old file or the new
  one, never half of one. Before each rename the path is checked again: it must be missing,
  or a regular file that is still a snapshot of ours (an empty file counts as ours).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from cinematic._files import RefusedFile, open_regular, parse_json, read_regular

#: A runtime snapshot of this app is a few kilobytes; anything larger is not one of ours.
MAX_BYTES = 1 << 20
#: How every snapshot this app writes starts (``json.dumps`` keeps the order it is built in).
OURS_PREFIX = b'{"format":'


def state_path() -> Path:
    """$XDG_STATE_HOME/cinematic/session.json, else ~/.local/state/cinematic/session.json."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cinematic" / "session.json"


class Foreign(Exception):
    """The state file is not a snapshot of ours: left untouched (the message says why)."""


def looks_ours(prefix: bytes) -> bool:
    """True for an empty file or one that starts as this app's snapshots do."""
    return prefix == b"" or prefix.startswith(OURS_PREFIX)


class StateFile:
    """One state file: :meth:`read` at start, :meth:`write` whenever the app saves."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _open_existing(self) -> Optional[int]:
        """A read-only descriptor of the path (never through a symlink), None when it does
        not exist; raises :class:`Foreign` for anything that is not a regular file."""
        try:
            return open_regular(self.path, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except RefusedFile as refused:   # "it is a FIFO, not a regular file"
            raise Foreign(str(refused)) from None
        except OSError as error:
            raise Foreign(f"cannot read it: {error.strerror}") from None

    def read(self) -> Optional[Dict[str, Any]]:
        """The saved snapshot, or None when there is none (no file, or an empty one).
        Raises :class:`Foreign` for a file that is not a snapshot of ours."""
        fd = self._open_existing()
        if fd is None:
            return None
        try:
            data = read_regular(fd, MAX_BYTES)
            if not data:
                return None
            document = parse_json(data)
        except RefusedFile as refused:   # too large, not UTF-8, not JSON, nested too deep...
            raise Foreign(str(refused)) from None
        except OSError as error:
            raise Foreign(f"cannot read it: {error.strerror}") from None
        finally:
            os.close(fd)
        if not isinstance(document, dict) or "format" not in document or not isinstance(document.get("stores"), list):
            raise Foreign("it is not a runtime snapshot")
        return document

    def _still_ours(self) -> None:
        """Raises :class:`Foreign` unless the path is missing or a snapshot of ours."""
        fd = self._open_existing()
        if fd is None:
            return
        try:
            prefix = os.pread(fd, len(OURS_PREFIX), 0)
        finally:
            os.close(fd)
        if not looks_ours(prefix):
            raise Foreign("it was replaced by a file that is not ours")

    def write(self, text: str) -> None:
        """Replaces the state file with ``text`` atomically (see the module). Raises
        :class:`Foreign` when the path is no longer ours, OSError when writing fails (the old
        file is then intact)."""
        directory = self.path.parent
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._still_ours()
        temporary = directory / f".{self.path.name}.{os.getpid()}.tmp"
        try:
            os.unlink(temporary)  # a leftover of a killed process with our pid
        except FileNotFoundError:
            pass
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            try:
                data = text.encode("utf-8")
                written = 0
                while written < len(data):
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            finally:
                os.close(fd)
            os.rename(temporary, self.path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
        directory_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(directory_fd)
        finally:
            os.close(directory_fd)


def read_state(path: Path) -> Tuple[Optional[Dict[str, Any]], Optional[str]]:
    """(the saved snapshot or None, a one-line note when the file is not ours or None)."""
    try:
        return StateFile(path).read(), None
    except Foreign as foreign:
        return None, str(foreign)


def remove_stale_temporaries(path: Path) -> None:
    """Deletes temporary files a killed app left next to the state file (named
    ``.<name>.<pid>.tmp``, ours by name, only when that process is gone)."""
    pattern = re.compile(rf"^\.{re.escape(path.name)}\.(\d+)\.tmp$")
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        match = pattern.match(name)
        if match is None or int(match.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(match.group(1)), 0)
            continue  # still running (another app saving)
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        try:
            os.unlink(path.parent / name)
        except OSError:
            pass
