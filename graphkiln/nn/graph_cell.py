"""``nn.GraphCell``: a cell that runs a graph loaded from a MINDIR file (``ms.load``)."""
from __future__ import annotations

import numpy as np

from ..common.parameter import Parameter
from ..common.tensor import Tensor
from .cell import Cell


class GraphCell(Cell):
    """Run ``graph`` (what ``ms.load`` returns) as a cell. Its weights are Parameters named
    as in the file (so ``load_checkpoint``/``load_param_into_net`` update them);
    ``params_init`` (name -> Tensor or Parameter) replaces some of them."""

    def __init__(self, graph, params_init: dict | None = None, obf_random_seed=None):
        super().__init__(auto_prefix=False)
        if not hasattr(graph, "run") or not hasattr(graph, "weights"):
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be a FuncGraph "
                            f"loaded from MIndIR, but got '{type(graph)}'.")
        if obf_random_seed is not None:
            # MindSpore 2.10 raises the same: its CPU build cannot run them either
            raise NotImplementedError("For 'GraphCell', dynamic structure obfuscation is not "
                                      "supported ('obf_random_seed'); load a model exported "
                                      "without 'obf_config'.")
        params_init = dict(params_init or {})
        if not isinstance(params_init, dict):
            raise TypeError(f"For 'GraphCell', the argument 'params_init' must be a dict, "
                            f"but got {type(params_init)}.")
        unknown = sorted(set(params_init) - set(graph.weights))
        if unknown:
            raise ValueError(f"For 'GraphCell', the parameter '{unknown[0]}' in "
                             f"'params_init' is not a parameter of the graph "
                             f"{sorted(graph.weights)}.")
        self.graph = graph
        for name, value in graph.weights.items():
            given = params_init.get(name)
            if given is not None:
                value = given.asnumpy() if isinstance(given, Tensor) else np.asarray(given)
                if value.shape != graph.weights[name].shape:
                    raise ValueError(f"For 'GraphCell', the shape {value.shape} of "
                                     f"'{name}' in 'params_init' differs from the graph's "
                                     f"{graph.weights[name].shape}.")
            self.insert_param_to_cell(name, Parameter(Tensor(np.array(value)), name=name),
                                      check_name_contain_dot=False)

    def construct(self, *inputs):
        return self.graph.run(self._params, inputs)
