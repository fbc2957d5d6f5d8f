"""The persistent compile cache against an attacker who can write the cache directory and
a careless user, across real processes: forged and special-file entries, authentic but
damaged entries, unsafe directories, growth, and every kind of state folded at trace time
changed between runs (the next process must compute with the new value)."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graphkiln.compile import entry_store as es

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    import sys
    import numpy as np
    import graphkiln as ms
    from graphkiln import ops
    import gk_settings

    SCALE = {scale}
    BIG = np.full(({big},), 0.5, np.float32)

    class Holder:
        factor = {factor}

    @ms.jit
    def f(x):
        y = x * SCALE + gk_settings.OFFSET + Holder.factor
        return y + ms.Tensor(BIG).sum()

    ms.set_context(enable_compile_cache=True, compile_cache_path=sys.argv[1])
    out = f(ms.Tensor(np.array([1.0, 2.0], np.float32)))
    print("RESULT", out.asnumpy().tolist(), ms.compile_info(f).from_cache)
''')


def _run(tmp_path: Path, cache: Path, scale=2.0, offset=0.0, factor=0.0, big=4,
         timeout=120):
    (tmp_path / "gk_settings.py").write_text(f"OFFSET = {offset}\n")
    script = tmp_path / "user_fn.py"
    script.write_text(SCRIPT.format(scale=scale, factor=factor, big=big))
    env = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{tmp_path}")
    p = subprocess.run([sys.executable, str(script), str(cache)], capture_output=True,
                       text=True, env=env, timeout=timeout)
    assert p.returncode == 0, p.stderr
    line = next(ln for ln in p.stdout.splitlines() if ln.startswith("RESULT"))
    return line, p.stderr


def _expected(scale=2.0, offset=0.0, factor=0.0, big=4, from_cache=False):
    vals = [v * scale + offset + factor + 0.5 * big for v in (1.0, 2.0)]
    return f"RESULT {vals} {from_cache}"


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if es.ENTRY_NAME.match(p.name))


def test_warm_run_loads_from_cache(tmp_path):
    cache = tmp_path / "cache"
    assert _run(tmp_path, cache)[0] == _expected()
    assert _run(tmp_path, cache)[0] == _expected(from_cache=True)


@pytest.mark.parametrize("change", [{"scale": 3.0}, {"offset": 1.5}, {"factor": -1.0}])
def test_changed_global_module_attribute_or_class_attribute_recompiles(tmp_path, change):
    cache = tmp_path / "cache"
    _run(tmp_path, cache)
    out, _ = _run(tmp_path, cache, **change)
    assert out == _expected(**change)  # never the old constant
    assert _run(tmp_path, cache, **change)[0] == _expected(**change, from_cache=True)


def test_forged_entry_is_never_unpickled(tmp_path):
    cache = tmp_path / "cache"
    _run(tmp_path, cache)
    marker = tmp_path / "pwned"

    class Exploit:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    for entry in _entries(cache):  # an attacker without the key rewrites the entry
        forger = es.EntryStore(str(cache), b"attacker-key-0123456789abcdef012", 1 << 30)
        forger.write(entry.name, pickle.dumps(Exploit()))
    out, err = _run(tmp_path, cache)
    assert not marker.exists()
    assert out == _expected() and "fails authentication" in err
    assert _run(tmp_path, cache)[0] == _expected(from_cache=True)  # rewritten


@pytest.mark.parametrize("damage", ["unknown_op", "missing_field", "wrong_type",
                                    "truncated_code", "not_a_dict"])
def test_authentic_but_damaged_entry_is_a_miss(tmp_path, damage):
    cache = tmp_path / "cache"
    _run(tmp_path, cache)
    store = es.EntryStore.open(str(cache))
    for entry in _entries(cache):
        data = pickle.loads(store.read(entry.name))
        if damage == "unknown_op":
            data["spec"]["k_NoSuchOp_0"] = ("kernel", "NoSuchOp")
        elif damage == "missing_field":
            del data["slots"]
        elif damage == "wrong_type":
            data["deps"] = "not a list"
        elif damage == "truncated_code":
            data["code"] = data["code"][:10]
        else:
            data = ["not", "an", "entry"]
        store.write(entry.name, pickle.dumps(data))
    out, err = _run(tmp_path, cache)
    assert out == _expected() and "ignoring the compile cache entry" in err
    assert _run(tmp_path, cache)[0] == _expected(from_cache=True)


def test_fifo_entry_does_not_hang(tmp_path):
    cache = tmp_path / "cache"
    _run(tmp_path, cache)
    for entry in _entries(cache):
        entry.unlink()
        os.mkfifo(entry)
    out, err = _run(tmp_path, cache, timeout=60)
    assert out == _expected() and "not a regular file" in err


def test_world_writable_directory_is_refused(tmp_path):
    cache = tmp_path / "shared"
    cache.mkdir()
    os.chmod(cache, 0o777)
    out, err = _run(tmp_path, cache)
    assert out == _expected() and "world-writable" in err
    assert not list(cache.iterdir())


def test_edits_replace_entries_and_constants_are_stored_once(tmp_path):
    cache = tmp_path / "cache"
    for scale in (1.0, 2.0, 3.0, 4.0):  # four edits of the function's source
        (tmp_path / "user_fn.py").unlink(missing_ok=True)
        SCRIPT_EDIT = SCRIPT.replace("y = x * SCALE", f"y = x * SCALE * {scale}")
        (tmp_path / "gk_settings.py").write_text("OFFSET = 0.0\n")
        script = tmp_path / "user_fn.py"
        script.write_text(SCRIPT_EDIT.format(scale=2.0, factor=0.0, big=1_000_000))
        env = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{tmp_path}")
        subprocess.run([sys.executable, str(script), str(cache)], check=True, env=env,
                       capture_output=True, timeout=120)
    entries = _entries(cache)
    assert len(entries) == 1, entries
    assert entries[0].stat().st_size < 1.5 * 4_000_000  # one copy of the 4 MB constant


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "graphkiln", "cache", *args],
                          capture_output=True, text=True, env=env, timeout=60)


def test_cli_clear_refuses_a_project_directory(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text("print('my work')\n")
    p = _cli("--clear", "--path", str(project))
    assert p.returncode != 0 and "not a graphkiln compile cache" in p.stderr
    assert (project / "train.py").read_text() == "print('my work')\n"


def test_cli_clear_dry_run_then_clear(tmp_path):
    cache = tmp_path / "cache"
    _run(tmp_path, cache)
    (cache / "notes.txt").write_text("keep me")
    entries = _entries(cache)
    p = _cli("--clear", "--dry-run", "--path", str(cache))
    assert p.returncode == 0 and all(str(e) in p.stdout for e in entries)
    assert all(e.exists() for e in entries)
    p = _cli("--clear", "--path", str(cache))
    assert p.returncode == 0 and not _entries(cache)
    assert (cache / "notes.txt").read_text() == "keep me"
