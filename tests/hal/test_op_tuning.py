"""``device_context.cpu.op_tuning.threads_num`` against MindSpore 2.10 CPU
(fixtures/op_tuning.json by fixtures/record_op_tuning.py): the checks, and once per process."""
import ast
import json
from pathlib import Path

from graphkiln.device_context import cpu
from graphkiln.device_context.cpu import op_tuning

REC = json.loads((Path(__file__).parent / "fixtures" / "op_tuning.json").read_text())


def test_threads_num_recorded(monkeypatch):
    monkeypatch.setattr(op_tuning, "_settings", {})  # (a fresh process, as recorded)
    assert cpu.threads_num is op_tuning.threads_num
    got = []
    for arg, _ in REC:
        try:
            got.append([arg, [repr(op_tuning.threads_num(ast.literal_eval(arg)))]])
        except (TypeError, ValueError, RuntimeError) as e:
            got.append([arg, [type(e).__name__]])
    assert got == REC
    assert op_tuning.op_tuning_settings() == {"threads_num": 2}
