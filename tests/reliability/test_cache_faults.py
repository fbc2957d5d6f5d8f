"""Every way a compile cache directory can be damaged or planted, each followed by the same
program in a fresh process (with another ``$HOME``): the right result, at most one clear
warning per bad file, nothing foreign executed, nothing hanging, and the bad entry replaced
atomically by an authentic one that the next process uses.

One pristine cache is built once per module (a jit function and a GRAPH_MODE Cell with
weights); every case damages a copy of it."""
from __future__ import annotations

import marshal
import os
import pickle
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graphkiln.compile import compile_cache as cc
from graphkiln.compile import entry_store as es

REPO = Path(__file__).resolve().parents[2]

PROGRAM = textwrap.dedent('''
    import sys
    import numpy as np
    import graphkiln as ms
    from graphkiln import nn, ops

    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True,
                   compile_cache_path=sys.argv[1])

    @ms.jit
    def f(x, y):
        out = x
        for _ in range(5):
            out = x + x * y + out
        return out

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)),
                                  name="w")

        def construct(self, x):
            return ops.matmul(x, self.w).sum(axis=1)

    net = Net()
    a = f(ms.Tensor([1.0, 2.0], ms.float32), ms.Tensor([2.0, 3.0], ms.float32))
    b = net(ms.Tensor(np.ones((2, 3), np.float32)))
    print("RESULT", a.asnumpy().tolist(), b.asnumpy().tolist())
    print("FROM_CACHE", ms.compile_info(f).from_cache, ms.compile_info(net).from_cache)
''')
RESULT = "RESULT [16.0, 42.0] [15.0, 15.0]"  # 1 + 5 * 3, 2 + 5 * 8; rows of 0+..+5
PWNED = "pwned"


def _run(work: Path, cache: Path, home: str, timeout: float = 60):
    env = {k: v for k, v in os.environ.items() if k != es.KEY_FILE_ENV}
    env.update(PYTHONPATH=str(REPO), HOME=str(work / home))
    env.pop("XDG_CONFIG_HOME", None)
    p = subprocess.run([sys.executable, str(work / "prog.py"), str(cache)], cwd=work,
                       capture_output=True, text=True, env=env, timeout=timeout)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr, p.stderr
    lines = dict(ln.split(" ", 1) for ln in p.stdout.splitlines()
                 if ln.startswith(("RESULT", "FROM_CACHE")))
    return "RESULT " + lines["RESULT"], lines["FROM_CACHE"], p.stderr


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """The program (its path is part of the entries' names) and a copy of the cache holding
    its two entries, made by a fresh process."""
    work = tmp_path_factory.mktemp("work")
    (work / "prog.py").write_text(PROGRAM)
    cache = work / "cache"
    out, hits, _ = _run(work, cache, "home0")
    assert out == RESULT and hits == "False False"
    assert _run(work, cache, "home0")[1] == "True True"
    shutil.copytree(cache, work / "pristine")
    return work


@pytest.fixture
def cache(pristine):
    """The program's cache, restored from the pristine copy."""
    cache = pristine / "cache"
    shutil.rmtree(cache)
    shutil.copytree(pristine / "pristine", cache)
    for leftover in ("pwned", "secret.txt", "elsewhere.key", "home1", "home2"):
        path = pristine / leftover
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
    return cache


def _entries(cache: Path) -> list[Path]:
    found = sorted(p for p in cache.iterdir() if es.ENTRY_NAME.match(p.name))
    assert len(found) == 2, found
    return found


def _authentic(cache: Path):
    es._KEYS.clear()
    return es.EntryStore.open(str(cache))


class _Exploit:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _payload(kind: str, original: bytes, marker: Path) -> bytes:
    """The new bytes of an entry file damaged or planted in the way ``kind`` names."""
    evil = pickle.dumps(_Exploit(marker))
    code = compile(f"open({str(marker)!r}, 'w').close()", "<planted>", "exec")
    header = len(es.MAGIC) + es.MAC_BYTES
    return {
        "truncated": original[:len(original) // 2],
        "truncated_to_header": original[:header],
        "empty": b"",
        "zero_filled": bytes(len(original)),
        "random_bytes": os.urandom(len(original)),
        "flipped_byte": original[:-7] + bytes([original[-7] ^ 0x20]) + original[-6:],
        "appended": original + b"\0" * 64,
        "pickle_injected": evil,
        "pickle_behind_magic": es.MAGIC + bytes(es.MAC_BYTES) + evil,
        "code_injected": f"open({str(marker)!r}, 'w').close()\n".encode(),
        "marshal_injected": marshal.dumps(code),
        "old_format_pickle": pickle.dumps({"format": 1, "code": marshal.dumps(code)}),
    }[kind]


UNAUTHENTIC = ["truncated", "truncated_to_header", "empty", "zero_filled", "random_bytes",
               "flipped_byte", "appended", "pickle_injected", "pickle_behind_magic",
               "code_injected", "marshal_injected", "old_format_pickle"]


def _check_recovered(cache: Path, damaged: list[Path], out: str, hits: str, err: str):
    """Right result, no foreign code run, one warning line per damaged file (each naming
    it), and every damaged entry rewritten as an authentic, usable entry."""
    assert out == RESULT and hits == "False False"
    assert not (cache.parent / PWNED).exists()
    warnings = [ln for ln in err.splitlines() if ln.startswith("graphkiln:")]
    assert len(warnings) == len(damaged), err
    for path in damaged:
        assert any(path.name in w for w in warnings), err
    store = _authentic(cache)
    for path in damaged:
        entry = pickle.loads(store.read(path.name))
        cc._check_entry(entry)
    assert not [n for n in os.listdir(cache) if n.endswith(".tmp")]


@pytest.mark.parametrize("kind", UNAUTHENTIC)
def test_unauthentic_entry_is_ignored_and_rewritten(cache, kind):
    marker = cache.parent / PWNED
    damaged = _entries(cache)
    for path in damaged:
        path.write_bytes(_payload(kind, path.read_bytes(), marker))
    _check_recovered(cache, damaged, *_run(cache.parent, cache, "home1"))


@pytest.mark.parametrize("kind", ["truncated", "pickle_injected", "zero_filled"])
def test_the_rewritten_entry_is_used_by_the_next_process(cache, kind):
    for path in _entries(cache):
        path.write_bytes(_payload(kind, path.read_bytes(), cache.parent / PWNED))
    _run(cache.parent, cache, "home1")
    out, hits, err = _run(cache.parent, cache, "home2")
    assert out == RESULT and hits == "True True" and "graphkiln:" not in err


def _authentic_damage(entry: dict, kind: str) -> object:
    """An entry with the user's key (a crash mid-way in an older or buggy writer) whose
    content is wrong in the way ``kind`` names."""
    if kind == "not_a_dict":
        return ["not", "an", "entry"]
    if kind == "other_version":
        return dict(entry, format=cc.FORMAT + 1)
    if kind == "missing_field":
        return {k: v for k, v in entry.items() if k != "source"}
    if kind == "wrong_types":
        return dict(entry, weights="w", slots=None, deps=7)
    if kind == "unknown_op":
        return dict(entry, spec=dict(entry["spec"], k_Nope_0=("kernel", "NoSuchOp")))
    if kind == "bad_spec":
        return dict(entry, spec={"k": ("module", "os.system")})
    if kind == "truncated_code":
        return dict(entry, code=entry["code"][:12])
    if kind == "code_not_marshal":
        return dict(entry, code=b"print('hi')")
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["not_a_dict", "other_version", "missing_field",
                                  "wrong_types", "unknown_op", "bad_spec", "truncated_code",
                                  "code_not_marshal"])
def test_authentic_entry_with_bad_fields_is_ignored_and_rewritten(cache, kind):
    store = _authentic(cache)
    damaged = _entries(cache)
    for path in damaged:
        entry = pickle.loads(store.read(path.name))
        store.write(path.name, pickle.dumps(_authentic_damage(entry, kind)))
    _check_recovered(cache, damaged, *_run(cache.parent, cache, "home1"))


@pytest.mark.parametrize("kind", ["fifo", "symlink", "directory"])
def test_special_file_in_place_of_an_entry(cache, kind):
    damaged = _entries(cache)
    secret = cache.parent / "secret.txt"
    secret.write_text("not an entry")
    for path in damaged:
        path.unlink()
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "symlink":
            path.symlink_to(secret)
        else:
            path.mkdir()
    out, hits, err = _run(cache.parent, cache, "home1", timeout=60)
    assert out == RESULT and hits == "False False"
    assert secret.read_text() == "not an entry"
    if kind != "directory":  # a directory cannot be replaced by a file: it stays a miss
        _check_recovered(cache, damaged, out, hits, err)


@pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user needs root")
def test_entry_owned_by_another_user(cache):
    damaged = _entries(cache)
    for path in damaged:
        os.chown(path, 65534, 65534)
    _check_recovered(cache, damaged, *_run(cache.parent, cache, "home1"))


@pytest.mark.parametrize("kind", ["deleted", "zero_filled", "readable_by_others", "fifo",
                                  "symlink"])
def test_damaged_key_is_replaced_and_every_entry_rebuilt(cache, kind):
    key = cache / es.KEY_NAME
    key.unlink()
    if kind == "zero_filled":
        key.write_bytes(bytes(es.KEY_BYTES))
        key.chmod(0o600)
    elif kind == "readable_by_others":  # someone may have read it: never trust it again
        key.write_bytes(os.urandom(es.KEY_BYTES))
        key.chmod(0o644)
    elif kind == "fifo":
        os.mkfifo(key)
    elif kind == "symlink":
        key.symlink_to(cache.parent / "elsewhere.key")
    out, hits, err = _run(cache.parent, cache, "home1", timeout=60)
    assert out == RESULT and hits == "False False"
    assert key.is_file() and not key.is_symlink() and (key.stat().st_mode & 0o077) == 0
    assert _run(cache.parent, cache, "home2")[1] == "True True"


@pytest.mark.parametrize("kind", ["garbage", "fifo", "deleted"])
def test_damaged_marker_is_rewritten(cache, kind):
    marker = cache / es.MARKER
    marker.unlink()
    if kind == "garbage":
        marker.write_bytes(os.urandom(100))
    elif kind == "fifo":
        os.mkfifo(marker)
    out, hits, err = _run(cache.parent, cache, "home1", timeout=60)
    assert out == RESULT and hits == "True True"
    assert es.is_cache_directory(str(cache))


def test_two_processes_recover_the_same_damaged_cache_at_once(cache):
    for path in _entries(cache):
        path.write_bytes(os.urandom(100))
    env = {k: v for k, v in os.environ.items() if k != es.KEY_FILE_ENV}
    env.update(PYTHONPATH=str(REPO))
    procs = [subprocess.Popen([sys.executable, str(cache.parent / "prog.py"), str(cache)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env, cwd=cache.parent) for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0 and RESULT in out, err
    assert _run(cache.parent, cache, "home1")[1] == "True True"
    assert not [n for n in os.listdir(cache) if n.endswith(".tmp")]
