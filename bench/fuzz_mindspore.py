"""Cross-check generated op-level programs against real MindSpore (the reference).

    PYTHONPATH=. python bench/fuzz_mindspore.py --seeds 0:300 [--ms-python PATH]

For every seed, ``tests/gen_op_programs.py`` writes a program; a child process running
MindSpore (``--ms-python``, default /work/msvenv/bin/python) runs it eagerly (PyNative,
synchronous) and under ``mindspore.jit`` on the program's three input pairs, and this
process runs it under graphkiln, eagerly and under ``graphkiln.jit``. Reported:

* ``mismatch``: MindSpore's two modes agree and graphkiln's eager result differs from them
  (dtype, shape, values; or only graphkiln raises);
* ``graph_mismatch``: the same for graphkiln's GRAPH result against MindSpore's;
* ``only_mindspore_raises``: graphkiln accepts a program MindSpore rejects (counted, not a
  failure: graphkiln may be more permissive);
* ``mindspore_self``: MindSpore's PyNative and GRAPH disagree with each other (the program
  is left out of the comparison).

The summary goes to ``bench/results/NAME.json`` (``--out``, default ``fuzz_mindspore``).
"""
from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
sys.path.insert(0, HERE)

import gen_op_programs as go  # noqa: E402

MS_HEADER = "import mindspore as ms\nfrom mindspore import ops\n\n\n"


def _leaves(out) -> list:
    """A result as a list of ``(dtype name, ndarray)`` / ``("py", value)`` leaves."""
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _leaves(o)]
    if hasattr(out, "asnumpy"):
        return [(str(out.dtype).lower().replace("bool_", "bool"), np.asarray(out.asnumpy()))]
    return [("py", out)]


def run_program(ms, mod, prog, jit: bool) -> list:
    """``[("ok", leaves) | ("raise", "TypeName: first line"), ...]`` over the inputs."""
    fn = ms.jit(mod.f) if jit else mod.f
    out = []
    for xa, ya in prog.inputs:
        x = ms.Tensor(xa, getattr(ms, prog.x_type[0]))
        y = ms.Tensor(ya, getattr(ms, prog.y_type[0]))
        try:
            out.append(("ok", _leaves(fn(x, y))))
        except Exception as e:  # noqa: BLE001 - a raise is a result to compare
            out.append(("raise", f"{type(e).__name__}: {str(e).strip().splitlines()[:1]}"))
    return out


def _load(source: str, name: str, directory: str):
    import importlib.util
    path = os.path.join(directory, f"{name}.py")
    with open(path, "w") as fh:
        fh.write(source)
    if directory not in sys.path:  # MindSpore's jit imports the function's module
        sys.path.insert(0, directory)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def record_mindspore(programs_path: str, path: str) -> None:
    """(In the MindSpore interpreter) every program's PyNative and jit results, pickled."""
    import mindspore as ms
    ms.set_context(mode=ms.PYNATIVE_MODE, pynative_synchronize=True)
    with open(programs_path, "rb") as fh:
        programs = pickle.load(fh)
    results = {}
    with tempfile.TemporaryDirectory(prefix="ms_fuzz_") as directory:
        for seed, prog in programs.items():
            source = prog.source.replace(go.HEADER, MS_HEADER, 1)
            try:
                mod = _load(source, f"ms_prog_{seed}", directory)
                results[seed] = (run_program(ms, mod, prog, False),
                                 run_program(ms, mod, prog, True))
            except Exception as e:  # noqa: BLE001
                results[seed] = ("crash", f"{type(e).__name__}: {e}")
    with open(path, "wb") as fh:
        pickle.dump(results, fh)


def _same(a: list, b: list, half: bool = False) -> str | None:
    """None when two per-input result lists agree, else what differs first (``half``: the
    program computes in float16, whose last bit MindSpore's kernels round differently)."""
    for i, ((ka, va), (kb, vb)) in enumerate(zip(a, b)):
        if ka != kb:
            return f"input {i}: {ka} {va if ka == 'raise' else ''} vs {kb} " \
                   f"{vb if kb == 'raise' else ''}"
        if ka == "raise":
            continue
        if len(va) != len(vb):
            return f"input {i}: {len(va)} vs {len(vb)} outputs"
        for j, ((da, xa), (db, xb)) in enumerate(zip(va, vb)):
            if da != db:
                return f"input {i} output {j}: dtype {da} vs {db}"
            if da == "py":
                if type(xa) is not type(xb) or xa != xb:
                    return f"input {i} output {j}: {xa!r} vs {xb!r}"
                continue
            if xa.shape != xb.shape:
                return f"input {i} output {j}: shape {xa.shape} vs {xb.shape}"
            # (float32 1e-4: MindSpore's CPU pow of a scalar base is off by ~1e-5, seed 381)
            tol = 2e-3 if da == "float16" or half else 1e-4
            if not np.allclose(xa.astype(np.float64), xb.astype(np.float64), rtol=tol,
                               atol=tol, equal_nan=True):
                return f"input {i} output {j}: {xa!r} vs {xb!r}"
    return None


def compare(ms_res, gk_eager: list, gk_graph: list, half: bool) -> tuple[str, str] | None:
    """The finding for one program, ``(kind, detail)``, or None."""
    if ms_res[0] == "crash":
        return "mindspore_self", f"MindSpore crashed: {ms_res[1]}"
    ms_eager, ms_graph = ms_res
    problem = _same(ms_eager, ms_graph)
    if problem:
        return "mindspore_self", problem
    if all(k == "raise" for k, _ in ms_eager):
        if any(k == "ok" for k, _ in gk_eager):
            return "only_mindspore_raises", str(ms_eager[0][1])
        return None
    problem = _same(gk_eager, ms_eager, half)
    if problem:
        if all(k == "ok" for k, _ in gk_eager) and any(k == "raise" for k, _ in ms_eager):
            return "only_mindspore_raises", problem
        return "mismatch", problem
    problem = _same(gk_graph, ms_graph, half)
    if problem:
        return "graph_mismatch", problem
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0:300", help="A:B or a comma-separated list")
    ap.add_argument("--ms-python", default="/work/msvenv/bin/python")
    ap.add_argument("--out", default="fuzz_mindspore")
    # the MindSpore child: --record PROGRAMS.pkl RESULTS.pkl
    ap.add_argument("--record", nargs=2, default=None, help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if ":" in opts.seeds:
        lo, hi = (int(v) for v in opts.seeds.split(":"))
        seeds = list(range(lo, hi))
    else:
        seeds = [int(v) for v in opts.seeds.split(",")]
    if opts.record:
        record_mindspore(*opts.record)
        return 0
    from _harness import write_json

    import graphkiln as ms
    t0 = time.perf_counter()
    programs = {seed: go.generate(seed, mindspore_safe=True) for seed in seeds}
    with tempfile.TemporaryDirectory(prefix="gk_msfuzz_") as directory:
        pkl, progs_pkl = os.path.join(directory, "ms.pkl"), os.path.join(directory, "p.pkl")
        with open(progs_pkl, "wb") as fh:
            pickle.dump(programs, fh)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        subprocess.run([opts.ms_python, os.path.abspath(__file__), "--record", progs_pkl,
                        pkl], check=True, env=env, stderr=subprocess.DEVNULL)
        with open(pkl, "rb") as fh:
            ms_results = pickle.load(fh)
        t_ms = time.perf_counter() - t0
        findings = []
        warnings.filterwarnings("ignore")
        for seed, prog in programs.items():
            mod = _load(prog.source, f"gk_prog_{seed}", directory)
            found = compare(ms_results[seed], run_program(ms, mod, prog, False),
                            run_program(ms, mod, prog, True), "float16" in prog.source)
            if found:
                findings.append({"seed": seed, "kind": found[0], "detail": found[1][:1500]})
                if found[0] in ("mismatch", "graph_mismatch"):
                    print(f"seed {seed} [{found[0]}] {found[1][:400]}\n"
                          f"  python tests/gen_op_programs.py {seed}", flush=True)
    kinds = ("mismatch", "graph_mismatch", "only_mindspore_raises", "mindspore_self")
    counts = {k: sum(1 for f in findings if f["kind"] == k) for k in kinds}
    seconds = time.perf_counter() - t0
    print(f"{len(seeds)} programs (seeds {opts.seeds}) in {seconds:.0f} s "
          f"(MindSpore {t_ms:.0f} s): {counts}")
    path = write_json(opts.out, {"seeds": opts.seeds, "programs": len(seeds),
                                 "seconds": seconds, "counts": counts, "findings": findings})
    print(f"wrote {path}")
    return 1 if counts["mismatch"] or counts["graph_mismatch"] else 0


if __name__ == "__main__":
    sys.exit(main())
