"""The floating-point operations of a compiled graph, as MindSpore's ``flops_collection``
counts them for ``FlopsUtilizationCollector``: the multiply-adds (two operations each) of
``MatMul``, ``BatchMatMul``, ``Conv2D`` and the convolution's two gradients, once per node
of the optimised graph (its sub-graphs included). Other primitives count nothing.

graphkiln recomputes nothing and shards nothing, so the hardware flops equal the model
flops, and the shard flops the full ones.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from ..ir.abstract import AbstractTensor
from ..ir.anf import CNode, ValueNode, iter_nodes
from ..ir.primitive import Primitive
from .call_cache import compile_info


class Flops(NamedTuple):
    """What ``flops_collection`` returns, in MindSpore's order."""
    full_model: float
    full_hardware: float
    shard_model: float
    shard_hardware: float
    is_dynamic_shape: bool


def _shape(node) -> tuple:
    abstract = node.abstract
    return abstract.shape if isinstance(abstract, AbstractTensor) else ()


def _matmul(node: CNode, transpose_a: bool) -> int:
    a = _shape(node.args[0])
    depth = a[-2] if transpose_a else a[-1]
    return 2 * math.prod(_shape(node)) * depth


def _node_flops(node: CNode, prim: Primitive) -> int:
    attrs = {**prim.opdef.attrs, **prim.attrs}
    name = prim.name
    if name in ("MatMul", "BatchMatMul"):  # 2 * outputs * contracted length
        return _matmul(node, bool(attrs.get("transpose_a")))
    if name == "Conv2D":  # 2 * outputs * (in channels / groups) * kernel area
        return 2 * math.prod(_shape(node)) * math.prod(_shape(node.args[1])[1:])
    if name == "Conv2DBackpropInput":  # (dy, weight): as many as the forward convolution
        return 2 * math.prod(_shape(node.args[0])) * math.prod(_shape(node.args[1])[1:])
    if name == "Conv2DBackpropFilter":  # (dy, x) -> the weight's gradient
        return 2 * math.prod(_shape(node.args[0])) * math.prod(_shape(node)[1:])
    return 0


_COUNTED = ("MatMul", "BatchMatMul", "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter")


def graph_flops(graph) -> Flops:
    """The flops of ``graph`` (a ``FuncGraph``) and whether a counted node's shape is
    known only at run time."""
    total, dynamic = 0, False
    for _, order in iter_nodes(graph):
        for node in order:
            fn = node.fn
            if not (isinstance(fn, ValueNode) and isinstance(fn.value, Primitive)):
                continue
            if fn.value.name not in _COUNTED:
                continue
            shapes = [_shape(node)] + [_shape(a) for a in node.args]
            if any(d < 0 for s in shapes for d in s):
                dynamic = True
                continue
            total += _node_flops(node, fn.value)
    return Flops(float(total), float(total), float(total), float(total), dynamic)


def flops_collection(obj) -> Flops:
    """The flops of the last compile of ``obj`` (a Cell or ``@jit`` function run in graph
    mode); ValueError if it has not been compiled."""
    return graph_flops(compile_info(obj).graph)
