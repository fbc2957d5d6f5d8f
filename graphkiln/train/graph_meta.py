"""``<prefix>-graph.meta``: the file ModelCheckpoint writes next to the checkpoints in
GRAPH_MODE, in MindSpore's ANF IR protobuf format (``mindspore.irpb.ModelProto``).

graphkiln records what it knows of the compiled training step in MindSpore's terms: the
graph's name, its inputs and parameters (name, dtype, shape) and its output types. The
operations (``NodeProto``) are not written: graphkiln's IR is not MindSpore's.

The format is ``ir/anf_ir_proto.py``.
"""
from __future__ import annotations

import stat

from ..common.tensor import Tensor
from ..ir.anf_ir_proto import DT_TUPLE, IR_VERSION, ModelProto, set_tensor_type
from .serialization import atomic_write


def _set_type(type_proto, value) -> None:
    """``value``'s type: a Tensor (dtype and shape) or a tuple of them."""
    if isinstance(value, (tuple, list)):
        type_proto.data_type = DT_TUPLE
        for item in value:
            _set_type(type_proto.sequence_type.elem_types.add(), item)
    elif isinstance(value, Tensor):
        set_tensor_type(type_proto, str(value.dtype), value.shape)


def graph_meta_bytes(network, inputs, outputs) -> bytes:
    """The serialized ``ModelProto`` of ``network`` called on ``inputs``, giving ``outputs``."""
    model = ModelProto(ir_version=IR_VERSION)
    graph = model.graph
    graph.name = f"{type(network).__name__}_construct"
    for i, value in enumerate(inputs or ()):
        param = graph.parameters.add(name=f"inputs{i}")
        _set_type(param.type, value)
    for param in network.get_parameters():
        _set_type(graph.parameters.add(name=param.name).type, param)
    _set_type(graph.outputs.add(name="output").type, outputs)
    return model.SerializeToString()


def save_graph_meta(path: str, network, inputs, outputs) -> None:
    """Write ``path`` (replacing it), readable and writable by the owner only, as MindSpore."""
    data = graph_meta_bytes(network, inputs, outputs)

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)
    atomic_write(path, write, stat.S_IRUSR | stat.S_IWUSR)
