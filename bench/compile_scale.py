"""Compile cost against graph size at the spec's scale: first-call time, peak memory and
node count of the PipelineCell/GPT model of ``bench/lazy_inline.py`` (micro-batches x
blocks), plain and ``@lazy_inline``, up to 224 blocks x 8 micro-batches (~135k nodes, the
spec's Pangu 13B figure). Each point runs in a fresh process; ``--baseline`` runs the same
points on another graphkiln checkout in the same run (before / after a change).

    python bench/compile_scale.py [--layers 16,32,64,128,224] [--micro 8]
                                  [--baseline ../other-checkout] [--repeat 3]

With ``--repeat N`` every point runs N times (interleaved with the baseline) and the run
with the median first-call time is kept: on a shared machine single runs are noisy.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time

from _harness import run_worker, table, write_json
from lazy_inline import build_model


def _rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(mode: str, layers: int, micro: int) -> None:
    ms, net, x, mask = build_model(mode == "lazy", layers, micro, "pipeline")
    ms.set_context(mode=ms.GRAPH_MODE)
    before = _rss_mb()
    t0 = time.perf_counter()
    net(x, mask)
    first = time.perf_counter() - t0
    info = ms.compile_info(net)
    print(json.dumps({"first_s": first, "peak_rss_mb": _rss_mb(), "rss_before_mb": before,
                      "parse_nodes": info.stage("parse").nodes, "nodes": info.nodes}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--worker", nargs=3, metavar=("MODE", "LAYERS", "MICRO"))
    p.add_argument("--layers", default="16,32,64,128,224")
    p.add_argument("--micro", type=int, default=8)
    p.add_argument("--baseline", default=None, help="another graphkiln checkout to compare")
    p.add_argument("--repeat", type=int, default=1)
    a = p.parse_args()
    if a.worker:
        worker(a.worker[0], int(a.worker[1]), int(a.worker[2]))
        return
    trees = [("this", None)] + ([("baseline", {"PYTHONPATH": a.baseline})]
                                if a.baseline else [])
    results: dict = {}
    rows = []
    for layers in [int(n) for n in a.layers.split(",")]:
        for mode in ("plain", "lazy"):
            samples: dict = {}
            for _ in range(a.repeat):
                for name, env in trees:  # interleaved, so load drifts hit both alike
                    samples.setdefault(name, []).append(run_worker(
                        __file__, sys.executable, [mode, str(layers), str(a.micro)], env))
            got = {name: sorted(runs, key=lambda r: r["first_s"])[len(runs) // 2]
                   for name, runs in samples.items()}
            results[f"{layers}x{a.micro}/{mode}"] = got
            g, b = got["this"], got.get("baseline")
            rows.append([f"{layers} x {a.micro}", mode, g["parse_nodes"],
                         g["first_s"], g["peak_rss_mb"],
                         g["first_s"] / g["parse_nodes"] * 1e6,
                         b["first_s"] if b else None, b["peak_rss_mb"] if b else None,
                         (g["first_s"] / b["first_s"]) if b else None])
    print(table(rows, ["blocks x micro", "mode", "nodes", "first call s", "peak RSS MB",
                       "us / node", "base first s", "base RSS MB", "ratio"]))
    path = write_json("compile_scale", {"python": sys.version, "baseline": a.baseline,
                                        "micro": a.micro, "repeat": a.repeat,
                                        "results": results})
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
