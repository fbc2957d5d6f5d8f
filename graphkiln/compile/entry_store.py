"""The compile cache's directory: authenticated entries, safe reads and writes, a size bound.

What is trusted (the threat model is in ``docs/compile_cache.md``): only bytes this user
wrote. Every entry carries an HMAC-SHA256 over its name and its whole content, keyed by a
random secret in the directory's ``cache.key``, a file only the user can read (created on
first use, replaced when it is not safe to trust). Nothing is unpickled or executed before
the MAC passes.

What is refused: a cache directory owned by another user, or world-writable without the
sticky bit (the program then runs without the cache, with one warning); an entry that is a
link, a FIFO, a device, another user's file, too large, or fails the MAC (a miss with one
warning; the fresh compile overwrites it).

Bounded: the directory holds at most ``max_bytes`` of entries (least recently used go
first); writing a function's entry removes the entries of its earlier versions.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import stat
import sys
import tempfile
import time

MAGIC = b"GKCACHE2\n"
MAC_BYTES = 32
KEY_BYTES = 32
MARKER = "CACHEDIR.TAG"
MARKER_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
               "# This directory is a graphkiln compile cache.\n"
               "# `python -m graphkiln cache --clear --path DIR` empties it.\n")
ENTRY_SUFFIX = ".gkc"
# <function group>-<function version>-<call signature>.gkc
ENTRY_NAME = re.compile(r"^[0-9a-f]{16}-[0-9a-f]{16}-[0-9a-f]{32}\.gkc$")
# an entry of graphkiln's first cache format (unauthenticated pickles, never read again)
LEGACY_NAME = re.compile(r"^[0-9a-f]{32}\.gkc$")
TEMP_NAME = re.compile(r"^\.[0-9a-f]{16}-[0-9a-f]{16}-[0-9a-f]{32}\.gkc\.[^/]*\.tmp$")
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
STALE_TEMP_SECONDS = 3600
KEY_FILE_ENV = "GRAPHKILN_CACHE_KEY_FILE"
KEY_NAME = "cache.key"

_warned: set = set()


def warn_once(key, message: str) -> None:
    """Print ``message`` to stderr the first time ``key`` is seen in this process."""
    if key in _warned:
        return
    _warned.add(key)
    print(f"graphkiln: {message}", file=sys.stderr)


def entry_name(group: str, version: str, signature: str) -> str:
    """The file name of an entry: the function (``group``), its code version, the call."""
    def digest(text: str, n: int) -> str:
        return hashlib.sha256(text.encode()).hexdigest()[:n]
    return f"{digest(group, 16)}-{digest(version, 16)}-{digest(signature, 32)}{ENTRY_SUFFIX}"


# ------------------------------------------------------------------ the key

def key_file(directory: str) -> str:
    """Where the cache's key lives: ``$GRAPHKILN_CACHE_KEY_FILE`` when set, else ``cache.key``
    inside the cache directory (private to its owner; it travels with the directory, so a
    changed ``$HOME`` or an unwritable home never disables the cache)."""
    explicit = os.environ.get(KEY_FILE_ENV)
    if explicit:
        return os.path.abspath(explicit)
    return os.path.join(directory, KEY_NAME)


class UnsafeKey(PermissionError):
    """The key file exists but must not be trusted (a link, not private, damaged...)."""


def _read_key(path: str) -> bytes:
    flags = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as e:  # ELOOP: a symbolic link
        raise UnsafeKey(f"the key file {path} cannot be opened safely ({e.strerror})") from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeKey(f"the key file {path} is not a regular file")
        if st.st_uid != os.getuid() or st.st_mode & 0o077 or st.st_nlink != 1:
            raise UnsafeKey(f"the key file {path} must be a file of yours, readable only by "
                            f"you (chmod 600), with no other links")
        key = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(key) != KEY_BYTES or not any(key):
        raise UnsafeKey(f"the key file {path} is damaged")
    return key


def _write_key(path: str, replace: bool) -> None:
    """Write a new random key atomically (never a half-written key): linked in place when
    there is none (the first of several processes wins), or renamed over an unsafe one."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".cache.key.")
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, secrets.token_bytes(KEY_BYTES))
        os.fsync(fd)
        os.close(fd)
        fd = -1
        if replace:
            os.replace(tmp, path)
            return
        try:
            os.link(tmp, path)
        except FileExistsError:  # another process made it first: use that one
            pass
    finally:
        if fd >= 0:
            os.close(fd)
        _unlink(tmp)


_KEYS: dict = {}


def secret_key(directory: str) -> bytes | None:
    """The key of the cache at ``directory`` (made on first use), or None with a warning when
    it cannot be made. A key inside the cache directory that is not safe to trust (a link, a
    FIFO, readable by others, damaged) is replaced by a new one, with one warning: the old
    entries then fail authentication and are rebuilt. An unsafe ``$GRAPHKILN_CACHE_KEY_FILE``
    (the user's own choice of place) turns the cache off instead."""
    path = key_file(directory)
    key = _KEYS.get(path)
    if key is not None:
        return key
    try:
        try:
            key = _read_key(path)
        except FileNotFoundError:
            _write_key(path, replace=False)
            key = _read_key(path)
        except UnsafeKey as e:
            if os.environ.get(KEY_FILE_ENV):
                raise
            warn_once(("key", path), f"{e}; it was replaced by a new key (the compile cache "
                                     f"entries made with the old key will be rebuilt).")
            _write_key(path, replace=True)
            key = _read_key(path)
    except OSError as e:
        warn_once(("key", path), f"the compile cache is off: {e}.")
        return None
    _KEYS[path] = key
    return key


# ------------------------------------------------------------------ the directory

def refusal(path: str) -> str | None:
    """Why the directory ``path`` must not be used as a cache, or None."""
    try:
        st = os.stat(path)
    except OSError as e:
        return f"it cannot be read ({e.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a directory"
    if st.st_uid != os.getuid():
        return f"it is owned by another user (uid {st.st_uid})"
    if st.st_mode & stat.S_IWOTH and not st.st_mode & stat.S_ISVTX:
        return "it is world-writable without the sticky bit"
    return None


def is_cache_directory(path: str) -> bool:
    """True when ``path`` holds graphkiln's marker file."""
    return _read_regular(os.path.join(path, MARKER), len(MARKER_TEXT) + 1) == \
        MARKER_TEXT.encode()


class EntryStore:
    """One usable cache directory (see :meth:`open`)."""

    def __init__(self, path: str, key: bytes, max_bytes: int):
        self.path = path
        self.key = key
        self.max_bytes = max_bytes

    @classmethod
    def open(cls, path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> EntryStore | None:
        """The store at ``path`` (created, private, with its marker), or None with one
        warning when the directory or the key cannot be trusted."""
        path = os.path.abspath(path)
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except OSError as e:
            warn_once(("dir", path), f"the compile cache directory {path} cannot be created "
                                     f"({e.strerror}); running without the cache.")
            return None
        why = refusal(path)
        if why is not None:
            warn_once(("dir", path), f"refusing the compile cache directory {path}: {why}. "
                                     f"Running without the cache; use a directory only you "
                                     f"can write (set compile_cache_path).")
            return None
        key = secret_key(path)
        if key is None:
            return None
        if not is_cache_directory(path):
            try:
                _write_atomic(path, MARKER, MARKER_TEXT.encode())
            except OSError as e:
                warn_once(("dir", path), f"the compile cache directory {path} is not "
                                         f"writable ({e}); running without the cache.")
                return None
        return cls(path, key, max_bytes)

    # -------------------------------------------------------------- entries
    def _mac(self, name: str, payload: bytes) -> bytes:
        return hmac.new(self.key, MAGIC + name.encode() + b"\0" + payload,
                        hashlib.sha256).digest()

    def read(self, name: str) -> bytes | None:
        """The payload of entry ``name``; None when absent, and None with one warning when
        it is not a private regular file or fails authentication."""
        path = os.path.join(self.path, name)
        flags = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_CLOEXEC", 0))
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            return None
        except OSError as e:  # a symbolic link (ELOOP), no permission...
            warn_once(("entry", path), f"ignoring the compile cache entry {path} "
                                       f"({e.strerror or e}).")
            return None
        try:
            st = os.fstat(fd)
            problem = None
            if not stat.S_ISREG(st.st_mode):
                problem = "not a regular file"
            elif st.st_uid != os.getuid():
                problem = f"owned by another user (uid {st.st_uid})"
            elif st.st_size > self.max_bytes + len(MAGIC) + MAC_BYTES:
                problem = "larger than the cache size limit"
            if problem is not None:
                warn_once(("entry", path), f"ignoring the compile cache entry {path} "
                                           f"({problem}).")
                return None
            data = _read_all(fd, st.st_size)
            if data is None:
                warn_once(("entry", path), f"ignoring the compile cache entry {path} "
                                           f"(it changed while being read).")
                return None
            try:
                os.utime(fd)  # recently used: evicted last
            except OSError:
                pass
        finally:
            os.close(fd)
        head, mac, payload = data[:len(MAGIC)], data[len(MAGIC):len(MAGIC) + MAC_BYTES], \
            data[len(MAGIC) + MAC_BYTES:]
        if head != MAGIC or not hmac.compare_digest(mac, self._mac(name, payload)):
            warn_once(("entry", path), f"ignoring the compile cache entry {path}: it fails "
                                       f"authentication (damaged, from another graphkiln "
                                       f"version or user, or tampered with); it will be "
                                       f"rewritten.")
            return None
        return payload

    def write(self, name: str, payload: bytes) -> bool:
        """Store ``payload`` as entry ``name`` atomically, remove the entries of earlier
        versions of the same function, and evict down to the size limit. Failures only
        warn (and leave no temp file)."""
        data = MAGIC + self._mac(name, payload) + payload
        try:
            _write_atomic(self.path, name, data)
        except OSError as e:
            warn_once(("write", self.path, type(e)), f"could not write the compile cache "
                                                     f"entry {name} in {self.path} ({e}).")
            return False
        self._remove_superseded(name)
        self._evict(keep=name)
        self._remove_stale_files()
        return True

    def entries(self) -> list[tuple[str, int, float]]:
        """``(name, size, last use)`` of every entry file."""
        out = []
        for n in _listdir(self.path):
            if ENTRY_NAME.match(n):
                try:
                    st = os.lstat(os.path.join(self.path, n))
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    out.append((n, st.st_size, st.st_mtime))
        return out

    def _remove_superseded(self, name: str) -> None:
        group, version = name.split("-")[:2]
        for n, _, _ in self.entries():
            g, v = n.split("-")[:2]
            if g == group and v != version:
                _unlink(os.path.join(self.path, n))

    def _remove_stale_files(self) -> None:
        """Remove the entries of graphkiln's first cache format and the temp files that a
        process killed mid-write left (older than any write in progress could be)."""
        cutoff = time.time() - STALE_TEMP_SECONDS
        for n in _listdir(self.path):
            full = os.path.join(self.path, n)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and (LEGACY_NAME.match(n) or TEMP_NAME.match(n)
                                             and st.st_mtime < cutoff):
                _unlink(full)

    def _evict(self, keep: str) -> None:
        entries = sorted(self.entries(), key=lambda e: (e[0] == keep, e[2]))
        total = sum(size for _, size, _ in entries)
        for n, size, _ in entries:
            if total <= self.max_bytes:
                break
            _unlink(os.path.join(self.path, n))
            total -= size


# ------------------------------------------------------------------ clearing

class NotACacheDirectory(ValueError):
    """``cache --clear`` was pointed at a directory that is not a graphkiln cache."""


def clear(path: str, dry_run: bool = False) -> list[str]:
    """Remove graphkiln's entries (and leftover temp files) from the cache at ``path``;
    the paths removed (or, with ``dry_run``, that would be). Nothing else is touched."""
    path = os.path.abspath(path)
    if not os.path.isdir(path):
        if os.path.lexists(path):
            raise NotACacheDirectory(f"{path} is not a directory; nothing was removed.")
        return []
    if not is_cache_directory(path):
        raise NotACacheDirectory(
            f"{path} is not a graphkiln compile cache (it has no {MARKER} marker written "
            f"by graphkiln); nothing was removed.")
    removed = []
    for n in sorted(_listdir(path)):
        full = os.path.join(path, n)
        if not (ENTRY_NAME.match(n) or TEMP_NAME.match(n)) or not _is_entry_file(full):
            continue
        removed.append(full)
        if not dry_run:
            _unlink(full)
    return removed


def _is_entry_file(path: str) -> bool:
    """A regular file (not a link) that starts with the entry format's magic bytes."""
    head = _read_regular(path, len(MAGIC))
    return head is not None and (head == MAGIC or path.endswith(".tmp")
                                 and MAGIC.startswith(head))


def _read_regular(path: str, n: int) -> bytes | None:
    """The first ``n`` bytes of ``path`` when it is a regular file (never following a link,
    never blocking on a FIFO), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, n)
    finally:
        os.close(fd)


# ------------------------------------------------------------------ file helpers

def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _read_all(fd: int, size: int) -> bytes | None:
    chunks, left = [], size
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    if os.read(fd, 1):
        return None
    return b"".join(chunks)


def _write_atomic(directory: str, name: str, data: bytes) -> None:
    """``directory/name`` = ``data``, all or nothing (temp file, fsync, rename); the temp
    file is removed on every failure."""
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, os.path.join(directory, name))
    except BaseException:
        _unlink(tmp)
        raise


__all__ = ["EntryStore", "clear", "entry_name", "is_cache_directory", "refusal",
           "NotACacheDirectory", "secret_key", "key_file", "warn_once", "DEFAULT_MAX_BYTES"]
