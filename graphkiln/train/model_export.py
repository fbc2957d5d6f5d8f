"""``ms.export`` and ``ms.load``: a cell's graph after graphkiln's passes written as MINDIR
(``mindir_write``) or ONNX (``onnx_write``), and MINDIR files read back (``mindir_read``)."""
from __future__ import annotations

import os
import stat

import graphkiln.train.ckpt_crypto as ckpt_crypto

from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..compile.api import cell_graph, compile_cell
from ..context import GRAPH_MODE, get_context, set_context
from ..nn.graph_cell import GraphCell
from .mindir_read import MindIRGraph
from .mindir_read import load as _load_mindir
from .mindir_write import write_mindir

_FORMATS = ["AIR", "ONNX", "MINDIR"]


def export(net, *inputs, file_name: str, file_format: str, **kwargs) -> None:
    """Write ``net``'s inference graph for ``inputs`` (tensors, or ``Tensor(shape=[None,
    ...])`` placeholders for dynamic dimensions) to ``file_name`` (``.mindir`` or ``.onnx``
    appended when missing)."""
    if file_format not in _FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {_FORMATS}, but got "
                         f"{file_format}.")
    if file_format == "AIR":
        raise ValueError("Only support export file in 'AIR' format with Ascend backend.")
    if not isinstance(file_name, str):
        raise TypeError(f"For 'export', the argument 'file_name' must be str, but got "
                        f"{type(file_name).__name__}.")
    if kwargs.get("obf_config") is not None:
        raise RuntimeError("For 'export', graphkiln cannot obfuscate models ('obf_config'); "
                           "export without it.")
    enc_key, enc_mode = kwargs.get("enc_key"), kwargs.get("enc_mode", "AES-GCM")
    if enc_key is not None:
        if file_format != "MINDIR":
            raise ValueError("For 'export', only MINDIR files can be encrypted ('enc_key').")
        ckpt_crypto.check_mode(enc_mode, enc_key, "export")
    if not inputs or not all(isinstance(x, Tensor) or _tensor_sequence(x) for x in inputs):
        raise TypeError("For 'export', the inputs must be Tensors (or Tensor(shape=..., "
                        "dtype=...) placeholders), or lists or tuples of Tensors.")
    inputs = tuple(_plain(x) for x in inputs)
    training = getattr(net, "training", None)  # a function has no training flag
    if training is not None:
        net.set_train(False)
    try:
        graph = cell_graph(net, inputs)
    finally:
        if training is not None:
            net.set_train(training)
    if hasattr(net, "get_parameters"):
        _check_own_weights(net, graph)
    weights = {p.weight.name: p.weight.asnumpy() for p in graph.weights}
    if file_format == "MINDIR":
        data, suffix = write_mindir(graph, weights, inputs), ".mindir"
    else:
        try:
            from .onnx_write import write_onnx  # onnx is an optional dependency
        except ImportError as e:
            raise ImportError(f"For 'export', file_format='ONNX' needs the 'onnx' package "
                              f"({e}): pip install graphkiln[onnx]") from e
        data, suffix = write_onnx(graph, weights), ".onnx"
    if enc_key is not None:
        data = ckpt_crypto.encrypt(data, enc_key, enc_mode)
    if not file_name.endswith(suffix):
        file_name += suffix
    _write_read_only(os.path.realpath(file_name), data)


def _plain(x):
    """An input as the graph takes it: a Parameter given as an input is its value (an input
    of the graph, not a weight)."""
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(e) for e in x)
    return Tensor(x.asnumpy(), x.dtype) if x._is_param else x


def _check_own_weights(net, graph) -> None:
    """MindSpore exports only the Parameters of ``net``'s cells: one the graph reads from
    elsewhere (a global) is refused."""
    own = {id(p) for p in net.get_parameters()}
    for p in graph.weights:
        if id(p.weight) not in own:
            raise ValueError(
                f"There's a mindspore.Parameter that wasn't created in nn.Cell, and "
                f"mindspore.export() does not support exporting such Parameters. The "
                f"parameter name is: {p.weight.name}.\nYou can find the supported syntax "
                f"range for mindspore.export() at the following link:\n"
                f"https://www.mindspore.cn/tutorials/zh-CN/master/beginner/save_load.html")


def _tensor_sequence(x) -> bool:
    """A list or tuple (``mutable`` or not) of Tensors: one MINDIR sequence input."""
    return isinstance(x, (list, tuple)) and bool(x) and all(isinstance(e, Tensor) for e in x)


def _write_read_only(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` (replacing a read-only file), then make it read-only for
    its owner, as MindSpore leaves exported files."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, stat.S_IRUSR)


def load(file_name: str, **kwargs) -> MindIRGraph:
    """MindSpore's ``load``: the graph of a MINDIR file, for ``nn.GraphCell``."""
    return _load_mindir(file_name, **kwargs)


def compile_file(file_name: str, **kwargs) -> GraphCell:
    """Load a MINDIR file and compile its GraphCell in GRAPH_MODE for the file's input
    shapes (dynamic sizes stay unknown), without running it (``graphkiln dump``)."""
    cell = GraphCell(load(file_name, **kwargs))
    placeholders = [Tensor(shape=list(i.shape), dtype=mstype.from_numpy(i.dtype))
                    for i in cell.graph.inputs]
    mode = get_context("mode")
    set_context(mode=GRAPH_MODE)
    try:
        compile_cell(cell, tuple(placeholders))
    finally:
        set_context(mode=mode)
    return cell
