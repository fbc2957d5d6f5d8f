"""MindSpore's synchronous data dump of compiled graphs (its CPU "E2E dump").

``MINDSPORE_DUMP_CONFIG`` names a JSON configuration (MindSpore's format: the
``common_dump_settings`` and ``e2e_dump_settings`` sections). While it is set, every
compiled graph runs a copy of its code whose kernels save their inputs and outputs, and
the graph its inputs and weights, as ``.npy`` files in MindSpore's layout::

    {path}/rank_{rank}/{net_name}/{graph_id}/{iteration}/
        {op_type}.{op_name}.0.0.{timestamp}.{input|output}.{slot}.DefaultFormat.{Dtype}.npy
        Parameter.{name}.0.0.{timestamp}.output.0.DefaultFormat.{Dtype}.npy
    {path}/rank_{rank}/graphs/ms_output_trace_code_graph_{graph_id}.ir (and .pb)
    {path}/rank_{rank}/execution_order/ms_execution_order_graph_{graph_id}.csv
    {path}/rank_{rank}/execution_order/ms_global_execution_order_graph_{graph_id}.csv
    {path}/rank_{rank}/.dump_metadata/data_dump.json, config.json

The configuration is read when a graph compiles (a changed file is read again); a
configuration MindSpore refuses raises its RuntimeError there. Operators are named
``Default/{op_type}-op{n}`` (graphkiln's nodes carry no cell scopes), numbered per type in
the graph's code order; iterations count the dumped graph runs of the process.
"""
from __future__ import annotations

import ast
import dis
import json
import os
import re
import sys
import time
from dataclasses import dataclass

import numpy as np

from ..common import comm_engine
from ..common import dtype as mstype
from ..ir import anf_ir_proto
from ..ir.printer import ir_text
from ..version import MINDSPORE_VERSION

ENV = "MINDSPORE_DUMP_CONFIG"
DUMP_FLAG = "_gk_dump"  # set_dump's mark on a Cell or Primitive
_KERNEL_LINE = re.compile(r"^\s+\w+ = (k_\w+)\(.*  # (\w+) @ (.*):(\d+)$")
_ITERATIONS = re.compile(r"[0-9|\-]+")


@dataclass(frozen=True)
class DumpConfig:
    """A parsed dump configuration."""

    path: str
    net_name: str
    iterations: tuple | None  # ((first, last), ...); None: every iteration
    dump_mode: int  # 0 every kernel, 1 the listed kernels, 2 set_dump's targets
    input_output: int  # 0 both, 1 inputs, 2 outputs
    kernels: tuple
    text: str  # the file as read (.dump_metadata/data_dump.json)

    def dumps_iteration(self, iteration: int) -> bool:
        return self.iterations is None or any(a <= iteration <= b for a, b in self.iterations)


def _iterations(spec) -> tuple | None:
    spec = str(spec).strip()
    if spec == "all":
        return None
    if not _ITERATIONS.fullmatch(spec.replace(" ", "")):
        raise RuntimeError(f"iteration only supports digits, {{'-', '|'}}, or just \"all\" "
                           f"but got: {spec}")
    ranges = []
    for part in spec.replace(" ", "").split("|"):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise RuntimeError(f"iteration only supports digits, {{'-', '|'}}, or just "
                               f"\"all\" but got: {spec}")
        ranges.append((int(first), int(last or first)))
    return tuple(ranges)


def parse_config(file: str) -> DumpConfig | None:
    """The configuration in ``file`` (None when its e2e dump is not enabled); RuntimeError
    with MindSpore's message for one MindSpore refuses."""
    try:
        with open(file, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        raise RuntimeError(f"Get dump config file failed: '{file}' ({ENV}) cannot be "
                           f"read.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RuntimeError(f"Parse dump json failed, error: {e} (in '{file}')") from None
    common = data.get("common_dump_settings") if isinstance(data, dict) else None
    if not isinstance(common, dict):
        raise RuntimeError(f"Dump config parse failed: '{file}' has no "
                           f"'common_dump_settings' object.")
    e2e = data.get("e2e_dump_settings", {})
    if not isinstance(e2e, dict) or not e2e.get("enable", False):
        return None
    path = common.get("path") or ""
    if not path and os.environ.get("MS_DIAGNOSTIC_DATA_PATH"):
        path = os.path.join(os.environ["MS_DIAGNOSTIC_DATA_PATH"], "debug_dump")
    if not path:
        raise RuntimeError("Dump path is empty. Please set it in dump json file or "
                           "environment variable `MS_DIAGNOSTIC_DATA_PATH`.")
    if not os.path.isabs(path):
        raise RuntimeError("Dump path only support absolute path and should start with '/'")
    dump_mode = common.get("dump_mode", 0)
    if dump_mode not in (0, 1, 2):
        raise RuntimeError(f"Dump config parse failed, dump_mode should be 0, 1 or 2, but "
                           f"got {dump_mode}")
    input_output = common.get("input_output", 0)
    if input_output not in (0, 1, 2):
        raise RuntimeError("Dump Json Parse Failed. input_output should be 0, 1, 2")
    if common.get("saved_data", "tensor") != "tensor":
        raise RuntimeError("Dump Json parse failed, storing statistic dump is only supported "
                           "on GPU and Ascend, please set saved_data to tensor or use a GPU "
                           "or Ascend device")
    kernels = common.get("kernels", [])
    if not isinstance(kernels, list) or not all(isinstance(k, str) for k in kernels):
        raise RuntimeError("Dump Json Parse Failed. kernels should be a list of strings")
    return DumpConfig(path, str(common.get("net_name", "Net")),
                      _iterations(common.get("iteration", "all")), dump_mode, input_output,
                      tuple(kernels), text)


class _State:
    """The configuration in force and the process's graph and iteration counters."""

    def __init__(self):
        self.config: DumpConfig | None = None
        self.key = None  # (file, mtime, size) the configuration was read from
        self.graphs = 0
        self.iteration = 0


STATE = _State()


def refresh() -> None:
    """Read ``$MINDSPORE_DUMP_CONFIG`` again if it changed (called by every compile)."""
    file = os.environ.get(ENV)
    if not file:
        STATE.config, STATE.key = None, None
        return
    try:
        st = os.stat(file)
        key = (file, st.st_mtime_ns, st.st_size)
    except OSError:
        key = (file, None, None)
    if key != STATE.key:
        STATE.config = parse_config(file)
        STATE.key = key


def set_dump(target, enabled: bool = True) -> None:
    """Select a Cell (with every cell under it) or a Primitive for ``dump_mode`` 2 (MindSpore
    supports this on Ascend only and warns elsewhere; graphkiln dumps them)."""
    if not (hasattr(target, "cells_and_names") or hasattr(target, "opdef")):
        raise ValueError(f"The \"target\" parameter must be an instance of Cell or "
                         f"Primitive, but got an instance of {type(target)}.")
    if not isinstance(enabled, bool):
        raise ValueError("The \"enabled\" parameter must be bool.")
    if hasattr(target, "opdef"):
        target.set_user_data(DUMP_FLAG, enabled)
        return
    for _, cell in target.cells_and_names():
        cell.__dict__[DUMP_FLAG] = enabled


def _construct_code(cell):
    construct = type(cell).construct
    return getattr(getattr(construct, "fn", construct), "__code__", None)


def _attribute_lines(code, name: str) -> set:
    """The lines of ``code`` that read the attribute ``name`` (``self.add(x, y)``)."""
    lines, line = set(), code.co_firstlineno
    for ins in dis.get_instructions(code):
        positions = getattr(ins, "positions", None)  # Python 3.11+
        if positions is not None and positions.lineno is not None:
            line = positions.lineno
        elif positions is None and ins.starts_line:  # Python 3.10: the line number
            line = ins.starts_line
        if ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and ins.argval == name:
            lines.add(line)
    return lines


def _selected_by_set_dump(root) -> tuple[set, tuple]:
    """What set_dump selects in the tree of ``root``: ``(op, file, line)`` where a selected
    primitive held by a cell is called in its ``construct``, and the ``(file, first,
    last)`` line spans of the ``construct`` of every selected cell. (Compiled graphs share
    one node per primitive and attributes, so a primitive is found by where it is used.)"""
    marked, spans = set(), []
    for _, cell in root.cells_and_names() if root is not None else ():
        code = _construct_code(cell)
        if code is None:
            continue
        if cell.__dict__.get(DUMP_FLAG):
            last = max((n for _, _, n in code.co_lines() if n is not None),
                       default=code.co_firstlineno)
            spans.append((code.co_filename, code.co_firstlineno, last))
        for name, value in vars(cell).items():
            if hasattr(value, "opdef") and value.get_user_data(DUMP_FLAG):
                marked.update((value.opdef.name, code.co_filename, line)
                              for line in _attribute_lines(code, name))
    return marked, tuple(spans)


def _dtype_name(a: np.ndarray) -> str:
    try:
        return str(mstype.from_numpy(a.dtype))
    except TypeError:
        return a.dtype.name


class GraphDump:
    """The dump of one compiled graph: its id, its kernels' names and which are dumped."""

    def __init__(self, exe, config: DumpConfig):
        self.config = config
        self.graph_id = STATE.graphs
        STATE.graphs += 1
        graph = exe.info.graph
        source = exe.generated.source
        root = exe.cell_state.cell() if exe.cell_state is not None else None
        marked, spans = _selected_by_set_dump(root) if config.dump_mode == 2 else (set(), ())
        self.names = {}  # line of the generated code -> (op type, full name)
        self.order = []  # full names in code order
        lines = []  # (line text, op type, full name) of the kernel lines
        self.dumped = set()  # lines whose kernels are dumped
        counts: dict = {}
        for lineno, line in enumerate(source.splitlines(), start=1):
            m = _KERNEL_LINE.match(line)
            if m is None or m.group(1).startswith("k_record_"):
                continue
            op, file, user_line = m.group(2), m.group(3), int(m.group(4))
            full = f"Default/{op}-op{counts.get(op, 0)}"
            counts[op] = counts.get(op, 0) + 1
            self.names[lineno] = (op, full)
            self.order.append(full)
            lines.append((line, op, full))
            if self._selected(op, full, (op, file, user_line), marked, spans):
                self.dumped.add(lineno)
        self.params = [p.name for p in graph.params] + [w.name for w in exe.weights]
        self.directory: str | None = None  # the iteration's, while it runs and is dumped
        self.rank_dir = os.path.join(config.path, f"rank_{_rank()}")
        self._write_graph_files(graph, source, self._graph_proto(graph, exe.weights, lines))
        self.fn = exe.generated.renamed().load(wrap=lambda _op, kernel: self._observer(kernel))

    def _selected(self, op: str, full: str, where: tuple, marked: set, spans: tuple) -> bool:
        mode = self.config.dump_mode
        if mode == 0:
            return True
        if mode == 2:
            _, file, line = where
            return where in marked or any(f == file and a <= line <= b for f, a, b in spans)
        for k in self.config.kernels:
            if k.startswith("name-regex(") and k.endswith(")"):
                if re.search(k[len("name-regex("):-1], full):
                    return True
            elif "/" in k or "-op" in k:
                if k == full:
                    return True
            elif k.lower() in full.lower():
                return True
        return False

    def _graph_proto(self, graph, weights, lines: list) -> bytes:
        """The kernels run, as MindSpore's ANF IR ``ModelProto``: inputs by the names of
        the graph's parameters and of the nodes that made them."""
        model = anf_ir_proto.ModelProto(ir_version=anf_ir_proto.IR_VERSION)
        proto = model.graph
        proto.name = f"kernel_graph{self.graph_id}"
        producers = {}  # variable of the code -> the name its value goes by
        inputs = [(p.name, getattr(p.abstract, "dtype", None), getattr(p.abstract, "shape", ()))
                  for p in graph.params] + [(w.name, w.dtype, w.shape) for w in weights]
        for k, (name, dtype, shape) in enumerate(inputs):
            producers[f"a{k}"] = name
            if dtype is not None:
                anf_ir_proto.set_tensor_type(proto.parameters.add(name=name).type,
                                             str(dtype), shape)
        for k, (line, op, full) in enumerate(lines, start=1):
            assign = ast.parse(line.strip()).body[0]
            node = proto.node.add(name=str(k), op_type=op, scope="Default", full_name=full)
            for arg in getattr(assign.value, "args", ()):
                if isinstance(arg, ast.Name) and arg.id in producers:
                    node.input.add(name=producers[arg.id])
            producers[assign.targets[0].id] = str(k)
        return model.SerializeToString()

    def _write_graph_files(self, graph, source: str, proto: bytes) -> None:
        graphs = os.path.join(self.rank_dir, "graphs")
        order = os.path.join(self.rank_dir, "execution_order")
        meta = os.path.join(self.rank_dir, ".dump_metadata")
        for d in (graphs, order, meta):
            os.makedirs(d, exist_ok=True)
        stem = os.path.join(graphs, f"ms_output_trace_code_graph_{self.graph_id}")
        _write(stem + ".ir", ir_text(graph, detail=True) if graph is not None else source)
        _write(stem + ".pb", proto)
        _write(os.path.join(order, f"ms_execution_order_graph_{self.graph_id}.csv"),
               "NodeExecutionOrder-FullNameWithScope\n" + "".join(f"{n}\n" for n in self.order))
        _write(os.path.join(meta, "data_dump.json"), self.config.text)
        _write(os.path.join(meta, "config.json"),
               json.dumps({"device_target": "CPU", "ms_version": MINDSPORE_VERSION}))

    def run(self, *arrays):
        """Run the dumping code on ``arrays`` (the inputs, then the weights)."""
        iteration = STATE.iteration
        STATE.iteration += 1
        with open(os.path.join(self.rank_dir, "execution_order",
                               f"ms_global_execution_order_graph_{self.graph_id}.csv"),
                  "a", encoding="utf-8") as f:
            f.write(f"{iteration}\n")
        self.directory = None
        if self.config.dumps_iteration(iteration):
            self.directory = os.path.join(self.rank_dir, self.config.net_name,
                                          str(self.graph_id), str(iteration))
            os.makedirs(self.directory, exist_ok=True)
            if self.config.dump_mode == 0:
                for name, a in zip(self.params, arrays):
                    self._save(f"Parameter.{name.replace('.', '_')}", "output", 0, a)
        return self.fn(*arrays)

    def _observer(self, kernel):
        """``kernel`` saving, on the lines that are dumped, its inputs before it runs (it
        may write them in place) and its outputs after."""
        def observed(*args, **kwargs):
            line = sys._getframe(1).f_lineno
            if self.directory is None or line not in self.dumped:
                return kernel(*args, **kwargs)
            op, full = self.names[line]
            prefix = f"{op}.{full.replace('/', '_')}"
            if self.config.input_output in (0, 1):
                for slot, a in enumerate(args):
                    self._save(prefix, "input", slot, a)
            out = kernel(*args, **kwargs)
            if self.config.input_output in (0, 2):
                for slot, a in enumerate(out if isinstance(out, tuple) else (out,)):
                    self._save(prefix, "output", slot, a)
            return out
        return observed

    def _save(self, prefix: str, io: str, slot: int, value) -> None:
        if not isinstance(value, (np.ndarray, np.generic)):
            return  # not a tensor: MindSpore saves no file either
        a = np.asarray(value)
        stamp = time.time_ns() // 1000
        np.save(os.path.join(self.directory, f"{prefix}.0.0.{stamp}.{io}.{slot}."
                                             f"DefaultFormat.{_dtype_name(a)}.npy"), a)


def _write(path: str, content) -> None:
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path, mode) as f:
        f.write(content)


def _rank() -> int:
    return comm_engine.world().rank if comm_engine.initialized() else 0
