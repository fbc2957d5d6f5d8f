"""@lazy_inline on a GPT-style model of N blocks, on its training step (TrainOneStepCell, SGD)
and on a PipelineCell-style micro-batch loop: node counts and first-call compile time with
and without the decorator, each in a fresh process. The spec reports 135k -> 20k
"computational nodes" (6.7x) for Pangu 13B: ``cnodes`` counts those (the operations,
calls and returns of every graph); ``nodes`` also counts each graph's parameters, weights
and constants, which lazy_inline cannot remove (every weight stays a parameter of the root
graph). In the training step the optimizer's per-parameter updates (about 100 nodes a
block, the same with and without the decorator) bound the cut.

    python bench/lazy_inline.py [--layers 32] [--micro 8]
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from _harness import run_worker, table, write_json


def build_model(lazy: bool, layers: int, micro: int, case: str):
    import graphkiln as ms
    from graphkiln import nn, ops
    from graphkiln.common import lazy_inline

    hidden, heads, seq = 32, 4, 8

    class Block(nn.Cell):
        def __init__(self, hidden, heads):
            super().__init__()
            self.heads = heads
            self.ln1 = nn.LayerNorm((hidden,))
            self.ln2 = nn.LayerNorm((hidden,))
            self.qkv = nn.Dense(hidden, 3 * hidden)
            self.proj = nn.Dense(hidden, hidden)
            self.fc1 = nn.Dense(hidden, 4 * hidden)
            self.fc2 = nn.Dense(4 * hidden, hidden)
            self.gelu = nn.GELU()
            self.scale = 1.0 / np.sqrt(hidden // heads)

        def construct(self, x, mask):
            b, s, h = x.shape
            d = h // self.heads
            qkv = self.qkv(self.ln1(x))
            q, k, v = ops.split(qkv, h, 2)
            q = ops.transpose(ops.reshape(q, (b, s, self.heads, d)), (0, 2, 1, 3))
            k = ops.transpose(ops.reshape(k, (b, s, self.heads, d)), (0, 2, 3, 1))
            v = ops.transpose(ops.reshape(v, (b, s, self.heads, d)), (0, 2, 1, 3))
            att = ops.matmul(q, k) * self.scale + mask
            att = ops.softmax(att, -1)
            y = ops.reshape(ops.transpose(ops.matmul(att, v), (0, 2, 1, 3)), (b, s, h))
            x = x + self.proj(y)
            return x + self.fc2(self.gelu(self.fc1(self.ln2(x))))

    if lazy:
        Block.__init__ = lazy_inline(Block.__init__)

    class GPT(nn.Cell):
        def __init__(self):
            super().__init__()
            self.blocks = nn.CellList([Block(hidden, heads) for _ in range(layers)])
            self.num_layers = layers

        def construct(self, x, mask):
            for i in range(self.num_layers):
                x = self.blocks[i](x, mask)
            return x

    class PipelineCell(nn.Cell):
        def __init__(self, network, micro_size):
            super().__init__()
            self.network = network
            self.micro_size = micro_size

        def construct(self, x, mask):
            out = x[0] * 0
            for i in range(self.micro_size):  # one micro-batch per slice of x
                out = out + self.network(x[i], mask)
            return out

    ms.set_seed(0)
    if case == "gpt":
        net = GPT()
    elif case == "gpt_train":
        net = _train_step(nn, GPT())
    else:
        net = PipelineCell(GPT(), micro)
    shape = (2, seq, hidden) if case != "pipeline" else (micro, 2, seq, hidden)
    x = ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    causal = np.triu(np.full((seq, seq), -1e4, np.float32), 1)
    return ms, net, x, ms.Tensor(causal)


def _train_step(nn, network):
    """TrainOneStepCell(sum of the outputs, SGD) around ``network``."""
    class SumLoss(nn.Cell):
        def __init__(self):
            super().__init__()
            self.network = network

        def construct(self, x, mask):
            return self.network(x, mask).sum()

    return nn.TrainOneStepCell(SumLoss(), nn.SGD(network.trainable_params(), 0.01))


def worker(case: str, lazy: str, layers: int, micro: int) -> None:
    ms, net, x, mask = build_model(lazy == "lazy", layers, micro, case)
    ms.set_context(mode=ms.GRAPH_MODE)
    t0 = time.perf_counter()
    out = net(x, mask)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(5):
        net(x, mask)
    steady = (time.perf_counter() - t0) / 5
    info = ms.compile_info(net)
    parse = info.stage("parse")
    print(json.dumps({"first_s": first, "steady_s": steady, "nodes": info.nodes,
                      "cnodes": info.cnodes, "parse_nodes": parse.nodes,
                      "parse_cnodes": parse.cnodes, "subgraphs": info.subgraphs,
                      "checksum": float(np.asarray(out.asnumpy(), np.float64).sum())}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--worker", nargs=4, metavar=("CASE", "LAZY", "LAYERS", "MICRO"))
    p.add_argument("--layers", type=int, default=32)
    p.add_argument("--micro", type=int, default=8)
    a = p.parse_args()
    if a.worker:
        worker(a.worker[0], a.worker[1], int(a.worker[2]), int(a.worker[3]))
        return
    results: dict = {}
    rows = []
    for case, layers in (("gpt", a.layers), ("gpt_train", a.layers),
                        ("pipeline", max(a.layers // 4, 1))):
        for mode in ("inline", "lazy"):
            results.setdefault(case, {})[mode] = run_worker(
                __file__, sys.executable, [case, mode, str(layers), str(a.micro)])
        i, lz = results[case]["inline"], results[case]["lazy"]
        label = f"{case} ({layers} blocks" + (f" x {a.micro} micro)" if case == "pipeline" else ")")
        rows.append([label, i["cnodes"], lz["cnodes"], i["cnodes"] / lz["cnodes"],
                     i["nodes"], lz["nodes"], i["nodes"] / lz["nodes"],
                     i["first_s"] * 1e3, lz["first_s"] * 1e3, i["first_s"] / lz["first_s"],
                     abs(i["checksum"] - lz["checksum"]) < 1e-3 * max(1, abs(i["checksum"]))])
    print(table(rows, ["model", "cnodes inline", "cnodes lazy", "cut (cnodes)",
                       "all nodes inline", "all nodes lazy", "all-node ratio",
                       "compile ms inline", "compile ms lazy", "compile ratio", "same output"]))
    gpt = results["gpt"]
    cut = gpt["inline"]["cnodes"] / gpt["lazy"]["cnodes"]
    print(f"\nlazy_inline's cut on gpt at N={a.layers}, in computational nodes as the spec "
          f"counts them (its 6.7x: Pangu's 135k -> 20k): {cut:.1f}x; counting every "
          f"parameter, weight and constant too: "
          f"{gpt['inline']['nodes'] / gpt['lazy']['nodes']:.1f}x")
    path = write_json("lazy_inline", {"python": sys.version, "results": results,
                                      "cut_cnodes": {case: r["inline"]["cnodes"] /
                                                     r["lazy"]["cnodes"]
                                                     for case, r in results.items()}})
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
