"""docs/train_a_model.md runs as written: its ```python blocks in order in one namespace, and
its ```python mindspore block with real MindSpore when /work/msvenv is installed."""
import os
import re
import subprocess

import pytest

from graphkiln import context

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "train_a_model.md")
MS_PYTHON = "/work/msvenv/bin/python"


def blocks(tag: str) -> list[str]:
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    return re.findall(rf"```{tag}\n(.*?)```", text, flags=re.S)


def test_doc_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__main__"}
    try:
        for code in blocks("python"):
            exec(compile(code, DOC, "exec"), namespace)
    finally:
        context.reset_context()
    out = capsys.readouterr().out
    assert re.search(r"^epoch: 1 step: 15, loss is \d", out, flags=re.M)
    assert re.search(r"^Train epoch time: [\d.]+ ms, per step time: [\d.]+ ms", out, flags=re.M)
    accuracy = float(re.search(r"\{'accuracy': ([\d.]+)\}", out).group(1))
    assert accuracy > 0.9
    assert sorted(os.listdir("checkpoints")) == ["mlp-2_15.ckpt", "mlp-2_30.ckpt",
                                                 "mlp-graph.meta"]
    if not os.path.exists(MS_PYTHON):
        pytest.skip("real MindSpore (/work/msvenv) is not installed: the MindSpore block "
                    "was not run")
    (mindspore_code,) = blocks("python mindspore")
    run = subprocess.run([MS_PYTHON, "-c", mindspore_code], capture_output=True, text=True,
                         timeout=180)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "MindSpore reproduces graphkiln's logits" in run.stdout
