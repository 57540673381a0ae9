"""What a fresh process pays before its first kernel call, remembered across processes in Triton's
cache directory, keyed by the files' metadata so that a changed file is always read again:

- the SHA-256 of a big file (our 100 MB library, part of the backend's cache key: ``file_digest``);
- Triton's own ``triton_key()``, which hashes the 400 MB ``libtriton.so`` and Triton's compiler,
  backend and language sources on the first compile of every process (about 0.3 s, more than the
  whole first call of a small kernel on the interpreter). ``install_triton_key_memo`` replaces it
  with a wrapper that returns the value Triton computed in an earlier process while none of the files
  under those directories has changed (path, size, mtime and inode of every file), and asks Triton
  otherwise: the key stays Triton's own, only its computation is skipped.

``TRITON_MUSA_STARTUP_CACHE=0`` turns both memos off.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from typing import Callable, Dict, Iterable, Optional

from .environment import startup_cache_enabled

_MEMO_FILE = "triton_musa_startup_memo.json"


def enabled() -> bool:
    return startup_cache_enabled()


def _memo_path() -> Optional[str]:
    try:
        from triton import knobs
        directory = knobs.cache.dir
    except Exception:  # noqa: BLE001  (no Triton cache directory: no memo)
        return None
    return os.path.join(directory, _MEMO_FILE) if directory else None


def _read_memo() -> Dict[str, str]:
    path = _memo_path()
    if path is None:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            memo = json.load(f)
        return memo if isinstance(memo, dict) else {}
    except (OSError, ValueError):
        return {}


def _remember(key: str, value: str) -> None:
    """Adds key -> value to the memo file (atomically replaced; a lost race loses only a memo)."""
    path = _memo_path()
    if path is None:
        return
    memo = _read_memo()
    memo[key] = value
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp_memo_")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(memo, f)
        os.replace(tmp, path)
    except OSError:
        pass


def _stamp(path: str, st: Optional[os.stat_result] = None) -> str:
    st = st or os.stat(path)
    return f"{path}|{st.st_size}|{st.st_mtime_ns}|{st.st_ino}"


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def file_digest(path: str, stamp: str) -> str:
    """The SHA-256 of ``path``, whose metadata is ``stamp`` (see ``file_stamp``)."""
    if not enabled():
        return _sha256(path)
    key = "sha256:" + stamp
    known = _read_memo().get(key)
    if known is not None:
        return known
    digest = _sha256(path)
    _remember(key, digest)
    return digest


def file_stamp(path: str) -> str:
    """Path, size, mtime and inode of ``path``: what its memoized digest is keyed by."""
    return _stamp(os.path.realpath(path))


def _tree_stamp(roots: Iterable[str]) -> str:
    """A digest of the metadata of every file under ``roots`` (a superset of what triton_key reads)."""
    digest = hashlib.sha256()
    pending = sorted(roots, reverse=True)
    while pending:
        directory = pending.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            else:
                try:
                    digest.update(_stamp(entry.path, entry.stat()).encode())
                except OSError:
                    digest.update(f"{entry.path}|missing".encode())
    return digest.hexdigest()


def _triton_key_inputs() -> Iterable[str]:
    import triton
    root = os.path.dirname(os.path.abspath(triton.__file__))
    return [os.path.join(root, "runtime", "cache.py"), os.path.join(root, "compiler"),
            os.path.join(root, "backends"), os.path.join(root, "_C"), os.path.join(root, "language")]


def _memoized_triton_key(original: Callable[[], str]) -> Callable[[], str]:
    @functools.lru_cache(maxsize=None)
    def triton_key() -> str:
        if not enabled():
            return original()
        import triton
        inputs = list(_triton_key_inputs())
        stamp = f"triton_key:{triton.__version__}:" + _tree_stamp(p for p in inputs if os.path.isdir(p))
        stamp += ":" + _stamp(inputs[0])
        known = _read_memo().get(stamp)
        if known is not None:
            return known
        value = original()
        _remember(stamp, value)
        return value

    triton_key.__wrapped_triton_key__ = original  # type: ignore[attr-defined]
    return triton_key


def install_triton_key_memo() -> None:
    """Replaces ``triton.runtime.cache.triton_key`` (read by ``get_cache_key`` on each compile) with its
    memoized wrapper, once per process."""
    try:
        from triton.runtime import cache
    except ImportError:
        return
    if hasattr(cache.triton_key, "__wrapped_triton_key__"):
        return
    cache.triton_key = _memoized_triton_key(cache.triton_key)
