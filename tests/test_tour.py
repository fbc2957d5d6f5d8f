"""``python -m graphkiln tour`` and the tour registry."""
import subprocess
import sys
from pathlib import Path

from graphkiln import __main__ as cli
from graphkiln import tour

REPO = Path(__file__).resolve().parents[1]


def test_every_entry_passes():
    results = tour.run()
    assert results and all(r.ok for r in results), tour.format_table(results)
    names = [r.name for r in results]
    assert len(names) == len(set(names))


def test_failures_are_reported_not_raised():
    def broken():
        raise AssertionError("wrong answer")

    results = tour.run([("ok", lambda: "fine"), ("broken", broken)])
    assert [r.ok for r in results] == [True, False]
    table = tour.format_table(results)
    assert "FAILED: AssertionError: wrong answer" in table
    assert table.splitlines()[0].split() == ["technique", "result", "time", "ms"]
    assert table.endswith("1 of 2 techniques work")


def test_entries_cannot_leak_the_mode():
    import graphkiln as ms

    def switch():
        ms.set_context(mode=ms.GRAPH_MODE)
        return "switched"

    tour.run([("switch", switch)])
    assert ms.get_context("mode") == ms.PYNATIVE_MODE


def test_cli_tour(capsys):
    assert cli.main(["tour", "--only", "select"]) == 0
    out = capsys.readouterr().out
    assert "ops.select" in out and "1 of 1 techniques work" in out
    assert cli.main(["tour", "--only", "no such entry"]) == 2


def test_python_dash_m_tour():
    proc = subprocess.run([sys.executable, "-m", "graphkiln", "tour"], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "techniques work" in proc.stdout
