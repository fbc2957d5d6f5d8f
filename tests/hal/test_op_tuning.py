"""``mindspore.device_context.cpu.op_tuning.threads_num``: set once per process, with
MindSpore 2.10's errors (messages as its CPU build words them)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
SCRIPT = """
from graphkiln.device_context.cpu import threads_num
from graphkiln.device_context.cpu.op_tuning import configured_threads_num
for bad in ("2", 0):
    try:
        threads_num(bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
print(configured_threads_num())
threads_num(2)
print(configured_threads_num())
try:
    threads_num(3)
except RuntimeError as e:
    print(type(e).__name__, e)
"""


def test_threads_num_is_set_once_per_process():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         check=True, env=env).stdout.splitlines()
    assert out == [
        "TypeError The parameter 'num' must be <class 'int'>, but got <class 'str'>",
        "ValueError The 'num' must be int and must > 0, but got '0' with type 'int'.",
        "None", "2", "RuntimeError The 'threads_num' can not be set repeatedly."]


def test_cpu_module_exports():
    import graphkiln as ms
    cpu = ms.device_context.cpu
    assert cpu.is_available() and cpu.device_count() == 1
    assert cpu.threads_num is cpu.op_tuning.threads_num


def test_threads_num_matches_the_recording(monkeypatch):
    """The outcomes of MindSpore 2.10's checks, in one fresh process's order
    (fixtures/op_tuning.json by fixtures/record_op_tuning.py)."""
    import ast
    import json

    from graphkiln.device_context.cpu import op_tuning
    rec = json.loads((Path(__file__).parent / "fixtures" / "op_tuning.json").read_text())
    monkeypatch.setattr(op_tuning, "_THREADS", [])  # (a fresh process, as recorded)
    got = []
    for arg, _ in rec:
        try:
            got.append([arg, [repr(op_tuning.threads_num(ast.literal_eval(arg)))]])
        except (TypeError, ValueError, RuntimeError) as e:
            got.append([arg, [type(e).__name__]])
    assert got == rec
    assert op_tuning.configured_threads_num() == 2
