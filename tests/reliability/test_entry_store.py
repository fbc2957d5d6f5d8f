"""The compile cache's directory layer (graphkiln/compile/entry_store.py) under attack and
careless use: forged, swapped, truncated and special-file entries, unsafe directories and
key files, failed writes, unbounded growth, and ``clear`` pointed at the wrong place."""
from __future__ import annotations

import os
import stat
import threading
import time

import pytest

from graphkiln.compile import entry_store as es


@pytest.fixture(autouse=True)
def fresh_keys(monkeypatch):
    """Every test reads keys from disk (the default: ``cache.key`` in the cache directory)
    and sees fresh warnings."""
    monkeypatch.delenv(es.KEY_FILE_ENV, raising=False)
    monkeypatch.setattr(es, "_KEYS", {})
    monkeypatch.setattr(es, "_warned", set())


def store(tmp_path, max_bytes=es.DEFAULT_MAX_BYTES) -> es.EntryStore:
    s = es.EntryStore.open(str(tmp_path / "cache"), max_bytes)
    assert s is not None
    return s


NAME = es.entry_name("f", "v1", "sig")


def test_round_trip_and_private_key(tmp_path):
    s = store(tmp_path)
    assert s.write(NAME, b"payload")
    assert s.read(NAME) == b"payload"
    key = tmp_path / "cache" / "cache.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == 32
    assert stat.S_IMODE(os.stat(s.path).st_mode) & 0o077 == 0
    assert es.is_cache_directory(s.path)


def test_the_key_travels_with_the_directory_not_the_home(tmp_path, monkeypatch):
    """A changed $HOME (a sandbox, a container, sudo) still reads the same entries."""
    monkeypatch.setenv("HOME", str(tmp_path / "home1"))
    store(tmp_path).write(NAME, b"payload")
    monkeypatch.setenv("HOME", str(tmp_path / "home2"))
    monkeypatch.setattr(es, "_KEYS", {})
    assert store(tmp_path).read(NAME) == b"payload"
    assert not (tmp_path / "home1").exists() and not (tmp_path / "home2").exists()


def test_explicit_key_file(tmp_path, monkeypatch):
    key = tmp_path / "keys" / "cache.key"
    monkeypatch.setenv(es.KEY_FILE_ENV, str(key))
    s = store(tmp_path)
    assert s.write(NAME, b"payload") and s.read(NAME) == b"payload"
    assert key.stat().st_size == 32 and not (tmp_path / "cache" / "cache.key").exists()


@pytest.mark.parametrize("damage", ["flip_payload", "flip_mac", "truncate", "empty",
                                    "append", "other_key", "swap_name", "foreign"])
def test_damaged_or_forged_entries_are_misses_with_one_warning(tmp_path, damage, capsys):
    s = store(tmp_path)
    s.write(NAME, b"x" * 100)
    path = os.path.join(s.path, NAME)
    data = open(path, "rb").read()
    other = es.entry_name("f", "v1", "other")
    if damage == "flip_payload":
        data = data[:-1] + bytes([data[-1] ^ 1])
    elif damage == "flip_mac":
        i = len(es.MAGIC)
        data = data[:i] + bytes([data[i] ^ 1]) + data[i + 1:]
    elif damage == "truncate":
        data = data[:len(data) // 2]
    elif damage == "empty":
        data = b""
    elif damage == "append":
        data += b"!"
    elif damage == "other_key":  # written by someone without this user's key
        forger = es.EntryStore(s.path, b"k" * 32, s.max_bytes)
        forger.write(NAME, b"import os; os.system('evil')")
        data = open(path, "rb").read()
    elif damage == "swap_name":  # a valid entry copied under another entry's name
        s.write(other, b"other payload")
        data = open(os.path.join(s.path, other), "rb").read()
    elif damage == "foreign":
        data = b"\x80\x04K\x01."  # a pickle, no MAC
    open(path, "wb").write(data)
    for _ in range(3):
        assert s.read(NAME) is None
    assert capsys.readouterr().err.count("fails authentication") == 1
    assert s.write(NAME, b"fresh") and s.read(NAME) == b"fresh"  # rewritten


def test_fifo_symlink_directory_entries_never_hang_or_follow(tmp_path, capsys):
    s = store(tmp_path)
    fifo = es.entry_name("f", "v", "fifo")
    os.mkfifo(os.path.join(s.path, fifo))
    link = es.entry_name("f", "v", "link")
    secret = tmp_path / "secret"
    secret.write_bytes(b"not yours")
    os.symlink(secret, os.path.join(s.path, link))
    sub = es.entry_name("f", "v", "dir")
    os.mkdir(os.path.join(s.path, sub))
    result = {}
    worker = threading.Thread(target=lambda: result.update(
        fifo=s.read(fifo), link=s.read(link), sub=s.read(sub)), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "reading a FIFO entry hangs"
    assert result == {"fifo": None, "link": None, "sub": None}
    err = capsys.readouterr().err
    assert "not a regular file" in err
    assert secret.read_bytes() == b"not yours"


def test_failed_writes_leave_no_temp_files(tmp_path, monkeypatch, capsys):
    s = store(tmp_path)
    os.mkdir(os.path.join(s.path, NAME))  # the entry path is a directory
    for _ in range(3):
        assert not s.write(NAME, b"data")
    full = es.entry_name("f", "v1", "full")

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    for _ in range(3):
        assert not s.write(full, b"data")
    assert sorted(os.listdir(s.path)) == sorted([es.MARKER, es.KEY_NAME, NAME])
    assert capsys.readouterr().err.count("could not write") == 2


@pytest.mark.parametrize("problem", ["world_writable", "other_owner", "not_a_dir"])
def test_unsafe_directories_are_refused(tmp_path, problem, capsys):
    d = tmp_path / "shared"
    if problem == "not_a_dir":
        d.write_text("x")
    else:
        d.mkdir()
    if problem == "world_writable":
        os.chmod(d, 0o777)
    elif problem == "other_owner":
        if os.getuid() != 0:
            pytest.skip("changing a directory's owner needs root")
        os.chown(d, 12345, 12345)
    assert es.EntryStore.open(str(d)) is None
    assert "running without the cache" in capsys.readouterr().err.lower()


def test_sticky_world_writable_directory_is_accepted(tmp_path):
    d = tmp_path / "tmpdir"
    d.mkdir()
    os.chmod(d, 0o1777)
    assert es.EntryStore.open(str(d)) is not None


KEY_PROBLEMS = ["readable_by_others", "symlink", "short", "empty", "zeros", "fifo",
                "hard_link"]


def _spoil_key(key, problem, tmp_path):
    if key.exists() or key.is_symlink():
        key.unlink()
    if problem == "fifo":
        os.mkfifo(key)
    elif problem == "hard_link":
        target = tmp_path / "known"
        target.write_bytes(b"k" * 32)
        os.chmod(target, 0o600)
        os.link(target, key)
    elif problem == "symlink":
        target = tmp_path / "elsewhere"
        target.write_bytes(b"k" * 32)
        os.chmod(target, 0o600)
        os.symlink(target, key)
    else:
        key.write_bytes({"short": b"k" * 5, "empty": b"", "zeros": bytes(32)}.get(problem,
                                                                          b"k" * 32))
        os.chmod(key, 0o644 if problem == "readable_by_others" else 0o600)


@pytest.mark.parametrize("problem", KEY_PROBLEMS)
def test_unsafe_key_in_the_directory_is_replaced(tmp_path, problem, capsys):
    """A key others could read, a link, a FIFO (never a hang), a damaged file: a new key,
    one warning, and the entries of the old key are rebuilt rather than trusted."""
    s = store(tmp_path)
    s.write(NAME, b"payload")
    key = tmp_path / "cache" / "cache.key"
    _spoil_key(key, problem, tmp_path)
    es._KEYS.clear()
    s2 = store(tmp_path)
    assert "replaced by a new key" in capsys.readouterr().err
    assert stat.S_ISREG(key.lstat().st_mode) and key.stat().st_nlink == 1
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == 32
    assert s2.key != s.key and s2.read(NAME) is None
    assert s2.write(NAME, b"fresh") and s2.read(NAME) == b"fresh"


@pytest.mark.parametrize("problem", KEY_PROBLEMS)
def test_unsafe_explicit_key_file_turns_the_cache_off(tmp_path, problem, monkeypatch, capsys):
    key = tmp_path / "keys" / "cache.key"
    key.parent.mkdir()
    monkeypatch.setenv(es.KEY_FILE_ENV, str(key))
    _spoil_key(key, problem, tmp_path)
    assert es.EntryStore.open(str(tmp_path / "cache")) is None
    assert "compile cache is off" in capsys.readouterr().err


def test_new_version_of_a_function_removes_the_old_entries(tmp_path):
    s = store(tmp_path)
    for version in range(30):
        for sig in ("a", "b"):
            s.write(es.entry_name("fn", f"v{version}", sig), b"code")
    s.write(es.entry_name("other", "v0", "a"), b"code")
    names = {n for n, _, _ in s.entries()}
    assert names == {es.entry_name("fn", "v29", "a"), es.entry_name("fn", "v29", "b"),
                     es.entry_name("other", "v0", "a")}


def test_size_limit_evicts_least_recently_used(tmp_path):
    s = store(tmp_path, max_bytes=3000)
    names = [es.entry_name(f"g{i}", "v", "s") for i in range(5)]
    for i, n in enumerate(names[:3]):
        s.write(n, b"x" * 900)
        os.utime(os.path.join(s.path, n), (1000 + i, 1000 + i))
    assert s.read(names[0]) is not None  # used: now the most recent
    s.write(names[3], b"x" * 900)
    left = {n for n, _, _ in s.entries()}
    assert names[1] not in left and {names[0], names[2], names[3]} <= left
    assert sum(size for _, size, _ in s.entries()) <= 3000
    s.write(names[4], b"x" * 5000)  # larger than the whole limit: not kept
    assert names[4] not in {n for n, _, _ in s.entries()}


def test_clear_removes_only_graphkiln_entries(tmp_path):
    s = store(tmp_path)
    s.write(NAME, b"payload")
    keep = {"notes.txt": b"mine", "main.py": b"print(1)",
            es.entry_name("x", "y", "z"): b"looks like an entry, is not"}
    for n, data in keep.items():
        (tmp_path / "cache" / n).write_bytes(data)
    os.symlink(tmp_path / "cache" / "notes.txt",
               tmp_path / "cache" / es.entry_name("l", "l", "l"))
    would = es.clear(s.path, dry_run=True)
    assert would == [os.path.join(s.path, NAME)] and os.path.exists(would[0])
    assert es.clear(s.path) == would
    for n, data in keep.items():
        assert (tmp_path / "cache" / n).read_bytes() == data
    assert (tmp_path / "cache" / es.MARKER).exists()


def test_clear_refuses_a_directory_that_is_not_a_cache(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "model.py").write_text("import mindspore\n")
    (project / "data.gkc").write_bytes(es.MAGIC + b"x")
    with pytest.raises(es.NotACacheDirectory, match="not a graphkiln compile cache"):
        es.clear(str(project))
    assert sorted(os.listdir(project)) == ["data.gkc", "model.py"]


def test_concurrent_writers_never_expose_a_partial_entry(tmp_path):
    s = store(tmp_path)
    payloads = [bytes([i]) * 200_000 for i in range(4)]
    stop = time.monotonic() + 1.0
    seen = set()

    def writer(p):
        while time.monotonic() < stop:
            s.write(NAME, p)

    threads = [threading.Thread(target=writer, args=(p,)) for p in payloads]
    for t in threads:
        t.start()
    while time.monotonic() < stop:
        got = s.read(NAME)
        if got is not None:
            seen.add(got[:1])
            assert got in payloads
    for t in threads:
        t.join()
    assert not [n for n in os.listdir(s.path) if n.endswith(".tmp")]


def test_entries_of_the_first_cache_format_are_removed(tmp_path):
    s = store(tmp_path)
    legacy = os.path.join(s.path, "0123456789abcdef0123456789abcdef.gkc")
    with open(legacy, "wb") as f:
        f.write(b"\x80\x04K\x01.")  # format 1: a bare pickle
    notes = os.path.join(s.path, "notes.gkc")
    with open(notes, "w") as f:
        f.write("not an entry name")
    s.write(NAME, b"x")
    assert not os.path.exists(legacy) and os.path.exists(notes)


def test_temp_files_of_a_killed_writer_are_removed_later(tmp_path):
    s = store(tmp_path)
    old = os.path.join(s.path, f".{NAME}.abc123.tmp")
    young = os.path.join(s.path, f".{NAME}.def456.tmp")  # a write in progress
    for path in (old, young):
        with open(path, "wb") as f:
            f.write(es.MAGIC[:3])
    os.utime(old, (time.time() - 2 * es.STALE_TEMP_SECONDS,) * 2)
    s.write(es.entry_name("g", "v", "s"), b"x")
    assert not os.path.exists(old) and os.path.exists(young)
