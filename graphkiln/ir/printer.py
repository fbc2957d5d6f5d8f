"""Write graphs as MindSpore's IR text (``# IR entry``, ``subgraph @name(...) { ... }``)."""
from __future__ import annotations

import numpy as np

from ..common import dtype as mstype
from .abstract import AbstractMonad, AbstractTensor
from .anf import FuncGraph, Parameter, ValueNode, all_graphs, count_nodes, toposort


def _format_array(v: np.ndarray, t) -> str:
    a = np.asarray(v)
    if a.ndim == 0:
        item = a.item()
        text = ("true" if item else "false") if a.dtype == np.bool_ else repr(item)
    else:
        text = np.array2string(a, separator=" ", threshold=8)
    return f"Tensor(shape={list(a.shape)}, dtype={t}, value={text})"


def format_value(node: ValueNode) -> str:
    v = node.value
    if isinstance(v, FuncGraph):
        return f"@{v.name}"
    if type(v) is tuple and v and isinstance(v[0], FuncGraph):
        return "(" + ", ".join(f"@{g.name}" for g in v) + ")"
    if isinstance(node.abstract, AbstractMonad):
        return node.abstract.kind
    if hasattr(v, "opdef"):
        return v.opdef.name
    if isinstance(v, (np.ndarray, np.generic)):
        t = node.abstract.dtype if isinstance(node.abstract, AbstractTensor) else \
            mstype.from_numpy(np.asarray(v).dtype)
        if isinstance(v, np.generic) and not isinstance(node.abstract, AbstractTensor):
            return repr(v.item())
        return _format_array(v, t)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, tuple):
        return "(" + ", ".join(format_value(ValueNode(e)) for e in v) + ")"
    if isinstance(v, mstype.Type):
        return str(v)
    return repr(v)


class IRPrinter:
    """Prints one graph family; ``detail`` adds abstracts and source lines under nodes."""

    def __init__(self, root: FuncGraph, detail: bool = False):
        self.root = root
        self.detail = detail
        self.param_names: dict[int, str] = {}
        graphs = all_graphs(root)
        self.graphs = graphs
        k = 1
        for g in graphs:
            for p in g.all_params:
                self.param_names[id(p)] = f"%para{k}_{p.name}"
                k += 1

    def text(self) -> str:
        root = self.root
        nodes, cnodes = count_nodes(root)
        out = [f"# IR entry: @{root.name}", f"# Total subgraphs: {len(self.graphs)}"]
        params = root.all_params
        out.append(f"# Total params: {len(params)}")
        out.append("# Params:")
        for p in params:
            line = f"{self.param_names[id(p)]} : {p.abstract.text()}"
            if p.weight is not None:
                line += "  :  has_default"
            out.append(line)
        out.append("")
        for g in self.graphs:
            out.append(self.graph_text(g))
            out.append("")
        out += ["Node counting information:", f"Total number of nodes: {nodes}",
                f"Total number of cnodes: {cnodes}", ""]
        return "\n".join(out)

    def graph_text(self, g: FuncGraph) -> str:
        names: dict[int, str] = {}
        for i, n in enumerate(toposort(g)):
            names[id(n)] = f"%{i}"

        def ref(x) -> str:
            if isinstance(x, ValueNode):
                return format_value(x)
            if isinstance(x, Parameter):
                return self.param_names.get(id(x), f"%{x.name}")
            return names.get(id(x), "%?")

        head = "" if g is self.root else ", ".join(self.param_names[id(p)] for p in g.params)
        lines = [f"subgraph @{g.name}({head}) {{"]
        for n in toposort(g):
            args = ", ".join(ref(a) for a in n.inputs[1:])
            lines.append(f"  {names[id(n)]} = {ref(n.inputs[0])}({args})")
            if self.detail:
                ins = ", ".join(a.abstract.text() if a.abstract is not None else "<null>"
                                for a in n.inputs[1:])
                outs = n.abstract.text() if n.abstract is not None else "<null>"
                lines.append(f"      : ({ins}) -> ({outs})")
                if n.loc is not None:
                    lines.append(f"      # In file {n.loc.filename}:{n.loc.lineno}")
        lines.append(f"  Return({ref(g.output)})")
        lines.append("}")
        return "\n".join(lines)


def ir_text(root: FuncGraph, detail: bool = False) -> str:
    return IRPrinter(root, detail).text()


__all__ = ["ir_text", "IRPrinter"]
