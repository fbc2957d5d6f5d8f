#!/usr/bin/env python3
"""Run MindSpore's CPU-marked system tests (tests/st/<folder> of mindspore-ai/mindspore_test)
against real MindSpore or graphkiln, and compare with a recorded baseline.

The tests are third-party (Apache-2.0) and never live in this repository: fetch
mindspore_test, extract it (``git -C REPO archive HEAD tests/st/mint | tar -x -C ROOT``) and
pass ROOT. The alias conftest of ../shared/conformance (``mindspore`` -> ``graphkiln``,
no-op ``arg_mark``) is copied to ROOT's top.

usage:
  python bench/wide_conformance.py --root ROOT --impl mindspore --python /work/msvenv/bin/python \\
      --record docs/conformance_wide/baseline_mint.tsv mint
  python bench/wide_conformance.py --root ROOT \\
      --baseline docs/conformance_wide/baseline_mint.tsv mint

Only tests marked for CPU count: ``arg_mark(plat_marks=[..., 'cpu_linux', ...])`` or
``@pytest.mark.platform_x86_cpu``. ``--sample N`` keeps every N-th test file (sorted), for
folders too large to run whole; ``--offset K`` starts at the K-th file, so that
``--sample N --offset K`` for K = 0..N-1 are disjoint slices of the folder.
With ``--baseline``, the last line is 'N/M baseline-passing tests pass'.
"""
from __future__ import annotations

import argparse
import ast
import concurrent.futures as cf
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

_PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE = next((p for p in (os.path.join(_PROJECT, "..", "shared", "conformance"),
                                os.path.join(_PROJECT, "..", "..", "shared", "conformance"))
                    if os.path.isdir(p)), os.path.join(_PROJECT, "..", "shared", "conformance"))


def _is_cpu_mark(deco: ast.expr) -> bool:
    """True for arg_mark(plat_marks=[... 'cpu_linux' ...]) and pytest.mark.platform_x86_cpu."""
    if isinstance(deco, ast.Call):
        for kw in deco.keywords:
            if kw.arg == "plat_marks" and "cpu_linux" in ast.unparse(kw.value):
                return True
        positional = deco.args[0] if deco.args else None
        return getattr(deco.func, "id", "") == "arg_mark" and positional is not None \
            and "cpu_linux" in ast.unparse(positional)
    return ast.unparse(deco).endswith("platform_x86_cpu")


def cpu_tests(path: str) -> list[str]:
    """Node ids (``func`` or ``Class::func``) of the CPU-marked tests of one file."""
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (SyntaxError, UnicodeDecodeError):
        return []
    ids = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            if any(_is_cpu_mark(d) for d in node.decorator_list):
                ids.append(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            cls_cpu = any(_is_cpu_mark(d) for d in node.decorator_list)
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and fn.name.startswith("test"):
                    if cls_cpu or any(_is_cpu_mark(d) for d in fn.decorator_list):
                        ids.append(f"{node.name}::{fn.name}")
    return ids


def select(root: str, folder: str, sample: int, offset: int = 0) -> dict[str, list[str]]:
    """{file relative to root: CPU node ids} for tests/st/<folder>."""
    base = os.path.join(root, "tests", "st", folder)
    files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(base)
                   for f in fs if f.startswith("test_") and f.endswith(".py"))
    files = files[offset::sample]
    work = {rel: cpu_tests(os.path.join(root, rel)) for rel in files}
    return {rel: ids for rel, ids in work.items() if ids}


def run_file(root: str, rel: str, ids: list[str], py: str, impl: str, timeout: int, tmp: str):
    """Run one file's selected tests; [(test id, outcome, reason)]."""
    xml = os.path.join(tmp, rel.replace("/", "__") + ".xml")
    env = dict(os.environ, CONFORMANCE_IMPL=impl, PYTHONDONTWRITEBYTECODE="1", DEVICE_TARGET="CPU")
    paths = [root] + ([os.path.join(CONFORMANCE, "shim")] if impl == "graphkiln" else [])
    env["PYTHONPATH"] = os.pathsep.join(paths + [p for p in [env.get("PYTHONPATH")] if p])
    base = os.path.basename(rel)
    # in file order (pytest-randomly, when installed, would shuffle tests that share state)
    cmd = ["timeout", "-k", "20", str(timeout), py, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           "-p", "no:randomly",
           f"--rootdir={root}", f"--junitxml={xml}", *[f"{base}::{i}" for i in ids]]
    rc = subprocess.run(cmd, cwd=os.path.join(root, os.path.dirname(rel)), env=env,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    rows = []
    if os.path.exists(xml) and rc not in (124, 137):
        try:
            rows = _parse_junit(xml, rel)
        except ET.ParseError:
            rows = []
    if not rows:
        why = f"timeout after {timeout}s" if rc in (124, 137) else f"no report (rc={rc})"
        rows = [(f"{rel}::{i}", "error", why) for i in ids]
    return rows


def _parse_junit(xml: str, rel: str):
    mod = os.path.splitext(rel)[0].replace("/", ".")
    rows = []
    for tc in ET.parse(xml).iter("testcase"):
        if tc.get("name") is None:  # a bare entry pytest writes after an INTERNALERROR
            continue
        cls = tc.get("classname", "")
        inner = cls[len(mod):].lstrip(".") if cls.startswith(mod) else ""
        tid = f"{rel}::" + (f"{inner}::" if inner else "") + tc.get("name")
        outcome, reason = "passed", ""
        for child in tc:
            if child.tag in ("failure", "error", "skipped"):
                outcome = "failed" if child.tag == "failure" else child.tag
                reason = " ".join((child.get("message") or "").split())[:200]
                break
        rows.append((tid, outcome, reason))
    return rows


def canonical(test_id: str) -> str:
    """``test_id`` as NumPy 2 spells its parameters: NumPy 1 (MindSpore's venv, where
    baselines are recorded) names ``numpy.bool_`` 'bool_' in parameter ids, NumPy 2 'bool'."""
    return re.sub(r"\bbool_\b", "bool", test_id)


def passing(tsv: str) -> list[str]:
    """Test ids that passed in a TSV written by --record or --out."""
    rows = [line.rstrip("\n").split("\t") for line in list(open(tsv))[1:]]
    return [r[0] for r in rows if len(r) > 1 and r[1] == "passed"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", required=True, help="folder holding tests/st of mindspore_test")
    ap.add_argument("--impl", default="graphkiln", choices=["graphkiln", "mindspore"])
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per test file")
    ap.add_argument("--sample", type=int, default=1, help="keep every N-th test file")
    ap.add_argument("--offset", type=int, default=0,
                    help="with --sample N: start at the K-th file (0 <= K < N)")
    ap.add_argument("--record", help="write every outcome to this TSV")
    ap.add_argument("--baseline", help="TSV from --record on MindSpore: run only its passing tests")
    ap.add_argument("--out", help="write this run's outcomes here (with --baseline)")
    ap.add_argument("folder")
    a = ap.parse_args()
    root = tempfile.mkdtemp(prefix="wide_st-")
    shutil.copytree(a.root, root, dirs_exist_ok=True)
    shutil.copy(os.path.join(CONFORMANCE, "ms_tests", "conftest.py"), root)
    if a.baseline:
        work: dict[str, list[str]] = {}
        for tid in passing(a.baseline):
            rel, rest = tid.split("::", 1)
            work.setdefault(rel, []).append(rest.split("[", 1)[0])
        work = {rel: sorted(set(ids)) for rel, ids in work.items()}
        want = {canonical(t) for t in passing(a.baseline)}
    else:
        work, want = select(root, a.folder, a.sample, a.offset), set()
    rows = []
    try:
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            futs = [ex.submit(run_file, root, rel, ids, a.python, a.impl, a.timeout, root)
                    for rel, ids in work.items()]
            for fu in cf.as_completed(futs):
                res = fu.result()
                rows.extend(res)
                n = sum(r[1] == "passed" for r in res)
                print(f"{res[0][0].split('::')[0]}: {n}/{len(res)}", flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    rows.sort()
    dest = a.record or a.out
    if dest:
        os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
        with open(dest, "w") as f:
            f.write("test_id\toutcome\treason\n")
            f.writelines("\t".join(r) + "\n" for r in rows)
    if want:
        got = {canonical(r[0]) for r in rows if r[1] == "passed"}
        print(f"{len(want & got)}/{len(want)} baseline-passing tests pass")
    else:
        print(f"{sum(r[1] == 'passed' for r in rows)}/{len(rows)} passed")


if __name__ == "__main__":
    main()
