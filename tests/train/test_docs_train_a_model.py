"""docs/train_a_model.md runs as written: its ```python blocks in order in one namespace, and
its ```python mindspore block with real MindSpore when /work/msvenv is installed."""
import contextlib
import io
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


@pytest.fixture(scope="module")
def doc_run(tmp_path_factory):
    """The directory the graphkiln blocks ran in, and what they printed."""
    workdir = tmp_path_factory.mktemp("train_a_model")
    namespace: dict = {"__name__": "__main__"}
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        with contextlib.redirect_stdout(out):
            for code in blocks("python"):
                exec(compile(code, DOC, "exec"), namespace)
    finally:
        os.chdir(cwd)
        context.reset_context()
    return workdir, out.getvalue()


def test_graphkiln_blocks_run(doc_run):
    workdir, out = doc_run
    assert re.search(r"^epoch: 1 step: 15, loss is \d", out, flags=re.M)
    assert re.search(r"^Train epoch time: [\d.]+ ms, per step time: [\d.]+ ms", out, flags=re.M)
    accuracy = float(re.search(r"\{'accuracy': ([\d.]+)\}", out).group(1))
    assert accuracy > 0.9
    assert sorted(os.listdir(workdir / "checkpoints")) == ["mlp-2_15.ckpt", "mlp-2_30.ckpt",
                                                           "mlp-graph.meta"]


@pytest.mark.skipif(not os.path.exists(MS_PYTHON),
                    reason="real MindSpore (/work/msvenv) is not installed on this machine")
def test_mindspore_block_loads_the_checkpoint(doc_run):
    workdir, _ = doc_run
    (mindspore_code,) = blocks("python mindspore")
    run = subprocess.run([MS_PYTHON, "-c", mindspore_code], cwd=workdir, capture_output=True,
                         text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "MindSpore reproduces graphkiln's logits" in run.stdout
