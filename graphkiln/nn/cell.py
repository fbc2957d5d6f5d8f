"""``Cell``: the unit of a network (containers are in ``container.py``).

Parameters and sub-cells are registered by attribute assignment, as in MindSpore:
``self.w = Parameter(...)`` stores ``w`` in ``self._params``, ``self.fc = Dense(...)``
stores ``fc`` in ``self._cells``, and ``__getattr__`` finds them again.

Parameter naming follows MindSpore 2.x exactly:

* an unnamed ``Parameter`` assigned to ``self.w`` is named ``w``; one created with
  ``name="param"`` keeps ``param``;
* assigning a cell to ``self.child`` in a parent whose ``auto_prefix`` is true renames
  every parameter of the child to ``child.<attribute path>`` (so a user name is replaced
  by the path, ``child.w``); with ``auto_prefix=False`` names are left alone. That is
  why the spec's ``BackwardNet(auto_prefix=False)`` shows ``ref_key=:param``.
* a parameter added to a cell after the cell was put in its parent is not renamed.

``cell_init_args`` is reserved for ``@lazy_inline``, which sets it on instances.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator

from ..common import dtype as mstype
from ..common.parameter import Buffer, Parameter, ParameterTuple, is_generated_name, note_attribute
from ..common.tensor import Tensor
from ..compile.api import call_cell
from ..compile.cell_state import note_cell_write
from ..errors import blame_argument
from ..frontend.weight_writes import write_attribute, write_parameter
from ..ir import amp_cast, tracing_state
from ..ops.defs.array import Cast
from .cell_hooks import HOOKS_ATTR, HookHandle, call_with_hooks
from .cell_hooks import register as register_hook
from .cell_state_dict import load_state_dict as _load_state_dict
from .cell_state_dict import register as _register_state_hook
from .cell_state_dict import state_dict as _state_dict

_DEFAULT_PARAM_NAME = "Parameter"
# how many cells with a to_float dtype are running (their weights read cast while > 0)
_AMP_DEPTH = [0]


def _cast_float(x, dtype):
    """``x`` cast to ``dtype`` when it is a floating-point Tensor of another float type."""
    if isinstance(x, Tensor) and x.dtype.is_float and x.dtype is not dtype:
        return Cast(x, dtype)
    return x


class Cell:
    """Base class of every network: subclasses define ``construct``; calling the cell
    runs it, compiled in GRAPH_MODE and eagerly in PYNATIVE_MODE."""

    __gk_cell__ = True  # common.jit_class.CELL_MARK: jit_class refuses cells
    # under to_float, weights are read cast to the cell's dtype unless this is set (as
    # MindSpore's BatchNorm, whose kernel takes float32 scale and bias with float16 input)
    keep_fp32_weights = False
    _dynamic_shape_inputs = None  # set_inputs (MindSpore's attribute name)
    phase = "train"  # MindSpore's compile-phase name (a cell may set its own)
    _scope = None  # MindSpore's name scope of a cell (so a CellDict key cannot be "_scope")

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None):
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_auto_prefix"] = bool(auto_prefix)
        d["_flags"] = {}
        d["_tuple_id"] = 1
        d["training"] = False
        d["requires_grad"] = False
        if flags:
            self.add_flags(**flags)

    # ------------------------------------------------------------------ call
    def construct(self, *args, **kwargs):
        """The computation of the cell; subclasses override it."""
        raise AttributeError(f"For '{type(self).__name__}', the method 'construct' is not "
                             f"defined.")
    construct.undefined_construct = True  # compile/api.py: such a cell runs its @jit method

    def __call__(self, *args, **kwargs):
        try:
            return self._gk_call(args, kwargs)
        except AttributeError as e:  # None, a str... where construct reads a Tensor attribute
            blamed = blame_argument(type(self).__name__, type(self).construct, (self, *args),
                                    kwargs, e)
            if blamed is None:
                raise
            raise blamed from None

    def _gk_call(self, args: tuple, kwargs: dict):
        """Run the cell and its hooks."""
        if "_names_checked" not in self.__dict__ and tracing_state.current() is None:
            self.check_names_and_refresh_name()
            self.__dict__["_names_checked"] = True
        listed = self.__dict__.get("_amp_listed")
        if listed is not None:  # custom_mixed_precision's white-listed primitive classes
            with amp_cast.listed(*listed):
                return self._gk_call_hooked(args, kwargs)
        return self._gk_call_hooked(args, kwargs)

    def _gk_call_hooked(self, args: tuple, kwargs: dict):
        if HOOKS_ATTR in self.__dict__:
            return call_with_hooks(self, args, kwargs, self._run)
        return self._run(args, kwargs)

    def _run(self, args: tuple, kwargs: dict):
        """Run the cell (inputs cast first under ``to_float``)."""
        dtype = self.__dict__.get("_amp_dtype")
        if dtype is None:
            return call_cell(self, args, kwargs)
        args = tuple(_cast_float(a, dtype) for a in args)
        _AMP_DEPTH[0] += 1
        outranked = bool(amp_cast.STACK)  # to_float outranks an "auto" amp strategy
        if outranked:
            amp_cast.push("to_float", dtype, (), ())
        try:
            return call_cell(self, args, kwargs)
        finally:
            if outranked:
                amp_cast.pop()
            _AMP_DEPTH[0] -= 1

    def register_forward_pre_hook(self, hook_fn) -> HookHandle:
        """``hook_fn(cell, inputs)`` runs before ``construct``; a result replaces the
        inputs (a tuple, or one value)."""
        return register_hook(self, "forward_pre", hook_fn)

    def register_forward_hook(self, hook_fn) -> HookHandle:
        """``hook_fn(cell, inputs, output)`` runs after ``construct``; a result replaces
        the output."""
        return register_hook(self, "forward", hook_fn)

    def register_backward_pre_hook(self, hook_fn) -> HookHandle:
        """``hook_fn(cell, grad_output)`` gets the gradients of the cell's outputs; a
        result replaces them."""
        return register_hook(self, "backward_pre", hook_fn)

    def register_backward_hook(self, hook_fn) -> HookHandle:
        """``hook_fn(cell, grad_input, grad_output)`` gets the gradients of the cell's
        Tensor inputs and outputs; a result replaces the inputs' gradients."""
        return register_hook(self, "backward", hook_fn)

    def to_float(self, dst_type) -> Cell:
        """Run this cell and its sub-cells in ``dst_type`` (float16, float32 or bfloat16):
        their floating-point inputs and trainable weights are cast to it when they run
        (the weights themselves stay in their own dtype)."""
        if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise ValueError(f"For 'to_float', the argument 'dst_type' must be mstype.float32, "
                             f"mstype.float16 or mstype.bfloat16, but got type: "
                             f"{type(dst_type)} and value: {dst_type}.")
        for _, cell in self.cells_and_names():
            cell.__dict__["_amp_dtype"] = dst_type
        return self

    @property
    def cls_name(self) -> str:
        return type(self).__name__

    @property
    def auto_prefix(self) -> bool:
        return self._auto_prefix

    @property
    def bprop_debug(self) -> bool:
        """MindSpore runs a custom ``bprop`` in the Python interpreter when this is set;
        graphkiln traces the ``bprop`` into the gradient graph either way."""
        return self.__dict__.get("_bprop_debug", False)

    @bprop_debug.setter
    def bprop_debug(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, "
                            f"but got type {type(value)}.")
        self.__dict__["_bprop_debug"] = value

    # -------------------------------------------------------- attribute access
    def _registry(self, what: str) -> OrderedDict:
        reg = self.__dict__.get(what)
        if reg is None:
            raise AttributeError(f"For '{type(self).__name__}', please call "
                                 f"Cell.__init__() (super().__init__()) before assigning "
                                 f"parameters or sub-cells.")
        return reg

    def __getattr__(self, name: str):
        d = self.__dict__
        params = d.get("_params")
        if params is not None and name in params:
            value = params[name]
            dtype = d.get("_amp_dtype")
            if dtype is not None and _AMP_DEPTH[0] and value is not None \
                    and value.requires_grad and not self.keep_fp32_weights:
                return _cast_float(value, dtype)
            return value
        cells = d.get("_cells")
        if cells is not None and name in cells:
            return cells[name]
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            return buffers[name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute "
                             f"'{name}'.")

    def __setattr__(self, name: str, value) -> None:
        note_cell_write()
        d = self.__dict__
        params = d.get("_params")
        cells = d.get("_cells")
        if isinstance(value, Parameter):
            self._set_param_attr(name, value)
        elif isinstance(value, ParameterTuple):
            self._set_param_tuple_attr(name, value)
        elif isinstance(value, Cell):
            self._set_cell_attr(name, value)
        elif isinstance(value, Buffer):
            self.register_buffer(name, value)
        elif name in d.get("_buffers", {}) and (value is None or isinstance(value, Tensor)):
            d["_buffers"][name] = value
        elif params is not None and name in params:
            if value is None:
                params[name] = None
            elif isinstance(value, Tensor):
                write_parameter(params[name], value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, can not "
                                f"assign this type: '{type(value)}' as a parameter.")
        elif cells is not None and name in cells:
            if value is not None:
                raise TypeError(f"Sub cell '{name}' already exists in network, can not "
                                f"assign this type: '{type(value)}' as a cell.")
            cells[name] = None
        elif not write_attribute(self, name, value):
            note_attribute(self, value)
            object.__setattr__(self, name, value)

    def _set_param_attr(self, name: str, param: Parameter) -> None:
        params = self._registry("_params")
        if is_generated_name(param.name):
            param.name = name
        # a cell's own weight is named through its cells' path (MindSpore prefixes it), so
        # two layers' "weight"s are not the same-named Parameters a graph refuses
        param._user_named = False
        self.__dict__.pop(name, None)
        self.__dict__["_cells"].pop(name, None)
        params[name] = param

    def _set_param_tuple_attr(self, name: str, value: ParameterTuple) -> None:
        # Every element is registered under its own name (optimizers keep the weights
        # and their moments this way); the attribute itself stays the tuple.
        self._registry("_params")
        seen_ids: set = set()
        names: set = set()
        for p in value:
            if id(p) in seen_ids:
                continue
            seen_ids.add(id(p))
            if is_generated_name(p.name):
                p.name = f"{_DEFAULT_PARAM_NAME}${self._tuple_id}"
                self.__dict__["_tuple_id"] += 1
            if p.name in names:
                raise ValueError(f"The value {p!r} , its name '{p.name}' already exists. "
                                 f"Please set a unique name for the parameter.")
            names.add(p.name)
            self.insert_param_to_cell(p.name, p, check_name_contain_dot=False)
        object.__setattr__(self, name, value)

    def _set_cell_attr(self, name: str, cell: Cell) -> None:
        cells = self._registry("_cells")
        if self._auto_prefix:
            cell.update_parameters_name(name + ".")
        self.__dict__.pop(name, None)
        self.__dict__["_params"].pop(name, None)
        cells[name] = cell

    def __delattr__(self, name: str) -> None:
        note_cell_write()
        d = self.__dict__
        if name in d.get("_params", {}):
            del d["_params"][name]
        elif name in d.get("_cells", {}):
            del d["_cells"][name]
        elif name in d.get("_buffers", {}):
            del d["_buffers"][name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._params) | set(self._cells)
                      | set(self.__dict__.get("_buffers", {})))

    # --------------------------------------------------------------- buffers
    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Keep ``tensor`` as the cell's untrained state ``self.<name>`` (read by
        ``construct``, listed by ``buffers``/``named_buffers``)."""
        buffers = self._registry("_buffers")
        if not isinstance(name, str):
            raise TypeError(f"For 'register_buffer', the buffer name should be a string, "
                            f"but got {type(name).__name__}.")
        if not name:
            raise KeyError("For 'register_buffer', the buffer name can't be empty string \"\".")
        if "." in name:
            raise KeyError(f"For 'register_buffer', the buffer name can't contain \".\", "
                           f"but got '{name}'.")
        if name not in buffers and (name in self.__dict__ or name in self._params
                                    or name in self._cells):
            raise KeyError(f"For 'register_buffer', the attribute '{name}' already exists; "
                           f"choose another buffer name.")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"For 'register_buffer', the buffer '{name}' should be a Tensor "
                            f"or None, but got {type(tensor).__name__}.")
        buffers[name] = tensor
        if not persistent:
            self.__dict__.setdefault("_non_persistent_buffers", set()).add(name)

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator:
        """(dotted name, buffer) of this cell's buffers, then its sub-cells'."""
        seen: set = set()
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        for cell_name, cell in cells:
            for name, buf in cell.__dict__.get("_buffers", {}).items():
                if buf is None or (remove_duplicate and id(buf) in seen):
                    continue
                seen.add(id(buf))
                yield (f"{cell_name}.{name}" if cell_name else name), buf

    def buffers(self, recurse: bool = True) -> Iterator:
        """The buffers of ``named_buffers``, without names."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at dotted path ``target`` (``"sub_net.buffer_1"``)."""
        *path, name = target.split(".")
        cell = self
        for part in path:
            cell = getattr(cell, part)
        buffers = cell.__dict__.get("_buffers", {})
        if name not in buffers:
            raise AttributeError(f"The '{type(cell).__name__}' object has no attribute "
                                 f"'{name}' as a buffer.")
        return buffers[name]

    # ------------------------------------------------------------ state dict
    def state_dict(self, destination=None, prefix: str = "", keep_vars: bool = False):
        """Parameters and persistent buffers by dotted name (see ``cell_state_dict.py``)."""
        return _state_dict(self, destination, prefix, keep_vars)

    def load_state_dict(self, state_dict: dict, strict: bool = True):
        """Copy ``state_dict`` into the parameters and buffers; (missing, unexpected) keys."""
        return _load_state_dict(self, state_dict, strict)

    def register_state_dict_pre_hook(self, hook):
        """``hook(cell, prefix, keep_vars)`` runs before ``state_dict`` collects."""
        return _register_state_hook(self, "_state_dict_pre_hooks", hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(cell, state_dict, prefix, local_metadata)`` runs after ``state_dict``."""
        return _register_state_hook(self, "_state_dict_hooks", hook)

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` runs before ``load_state_dict`` copies."""
        return _register_state_hook(self, "_load_state_dict_pre_hooks", hook)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(cell, incompatible_keys)`` runs after ``load_state_dict``."""
        return _register_state_hook(self, "_load_state_dict_post_hooks", hook)

    # ------------------------------------------------------------- insertion
    def insert_param_to_cell(self, param_name: str, param, check_name_contain_dot=True):
        """Register ``param`` under ``param_name`` (MindSpore's checks and errors)."""
        note_cell_write()
        if "_params" not in self.__dict__:
            raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() "
                                 "firstly.")
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not "
                           "be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not "
                           "contain'.' ")
        if param_name in self.__dict__ or param_name in self._cells:
            raise KeyError(f"For 'insert_param_to_cell', the {param_name} parameter already "
                           f"exists in the network.Cannot insert another parameter with the "
                           f"same name.")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be "
                            f"'Parameter' if not None, but got {type(param)}.")
        if isinstance(param, Parameter) and is_generated_name(param.name):
            param.name = param_name
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name: str, child_cell) -> None:
        """Register ``child_cell`` under ``child_name`` (no renaming of its parameters)."""
        note_cell_write()
        if not child_name or "." in child_name:
            raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be "
                           "None and can not contain '.' ")
        if child_name in self.__dict__ or child_name in self._params:
            raise KeyError(f"For 'insert_child_to_cell', the {child_name} child cell already "
                           f"exists in the network.Cannot insert another child cell with the "
                           f"same name.")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be "
                            f"'Cell' if not None, but got type {type(child_cell)}.")
        self._registry("_cells")[child_name] = child_cell

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Name every parameter ``prefix + <attribute path>``."""
        if not isinstance(prefix, str):
            raise TypeError(f"For 'update_parameters_name', the argument 'prefix' must be "
                            f"str, but got {type(prefix).__name__}.")
        for path, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + path

    def check_names_and_refresh_name(self) -> None:
        """MindSpore's check on a cell's first call from Python: parameters sharing a name
        (as container prefixes can give) are all renamed to their attribute paths; a name
        still shared is a ValueError."""
        params = [p for _, p in self.parameters_and_names()]
        if len({p.name for p in params}) < len(params):
            self.update_parameters_name()
            self.check_names()

    def check_names(self) -> None:
        """A ValueError if two parameters of the cell share a name."""
        names: set = set()
        for path, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(f"The value of {path} is {param!r}, its name '{param.name}' "
                                 f"already exists. Please set a unique name for the parameter.")
            names.add(param.name)

    # ----------------------------------------------------------- traversal
    def cells_and_names(self, cells=None, name_prefix: str = "") -> Iterator:
        """``(path, cell)`` for this cell and every sub-cell, pre-order, each cell once."""
        seen = cells if cells is not None else set()
        if id(self) not in seen:
            seen.add(id(self))
            yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is None or id(cell) in seen:
                continue
            path = f"{name_prefix}.{name}" if name_prefix else name
            yield from cell.cells_and_names(seen, path)

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator:
        """``(attribute path, Parameter)``: own parameters first, then sub-cells' in
        assignment order; a parameter reachable twice is listed once."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else \
            [(name_prefix, self)]
        seen: set = set()
        for cell_path, cell in cells:
            for name, param in cell._params.items():
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                yield (f"{cell_path}.{name}" if cell_path else name), param

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse: bool = True) -> list:
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list:
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> OrderedDict:
        """``{param.name: param}``."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def name_cells(self) -> OrderedDict:
        """Direct sub-cells by attribute name (each cell once, ``None`` left out)."""
        out: OrderedDict = OrderedDict()
        seen: set = set()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                out[name] = cell
        return out

    def cells(self):
        return self.name_cells().values()

    def apply(self, fn: Callable[[Cell], object]) -> Cell:
        """Call ``fn`` on every sub-cell (depth first, children before parents), then on
        this cell; returns this cell (weight initialisation by hand, as in MindSpore)."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------- dynamic inputs
    def set_inputs(self, *inputs, **kwargs) -> None:
        """Compile ``construct`` for inputs like ``inputs`` (placeholders such as
        ``Tensor(shape=[None, 3], dtype=ms.float32)``): one graph serves every size of the
        unknown dimensions, and a call whose inputs do not fit raises MindSpore's error.
        Other entries (a dtype, a number) stand for the argument at their position."""
        self.__dict__["_dynamic_shape_inputs"] = inputs or None  # MindSpore's attribute

    def get_inputs(self) -> tuple | None:
        """The inputs given to :meth:`set_inputs`, or None."""
        return self._dynamic_shape_inputs

    # ------------------------------------------------------------- modes
    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict:
        """Parameters are created with their data here: maps each to itself."""
        return {p: p for p in self.get_parameters()}

    def set_train(self, mode: bool = True) -> Cell:
        """Training mode on (``Dropout`` drops) or off, for this cell and all sub-cells (a
        write compiled calls notice only when some cell's mode changes: loops call this
        every step)."""
        mode = bool(mode)
        for _, cell in self.cells_and_names():
            if cell.__dict__.get("training") is not mode:
                note_cell_write()
                cell.__dict__["training"] = mode
        return self

    def set_jit_config(self, jit_config) -> None:
        """Keep the compile options ``jit_config`` (a ``JitConfig``; see its module)."""
        self.jit_config_dict = jit_config.jit_config_dict

    def recompute(self, **kwargs) -> None:
        """Marks the cell (and its sub-cells) for recomputation in the backward pass
        (MindSpore's memory trade-off); graphkiln's gradients are the same either way, so
        the mark is only recorded."""
        for cell in self.cells_and_names():
            object.__setattr__(cell[1], "_recompute", dict(kwargs) or True)

    def set_grad(self, requires_grad: bool = True) -> Cell:
        self.__dict__["requires_grad"] = bool(requires_grad)
        return self

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True) -> Cell:
        """Put the trainable parameters' gradient all-reduces in fusion group
        ``fusion_type`` (kept on each ``Parameter.comm_fusion``; graphkiln's data-parallel
        step reduces all gradients together, so the group does not change results)."""
        if isinstance(fusion_type, bool) or not isinstance(fusion_type, int):
            raise TypeError(f"The input value must be int, but got "
                            f"'{type(fusion_type).__name__}'")
        if fusion_type < 0:
            raise ValueError(f"The input value must be int and must >= 0, but got "
                             f"'{fusion_type}' with type 'int'.")
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        return self

    def add_flags(self, **flags) -> Cell:
        self.__dict__.setdefault("_flags", {}).update(flags)
        return self

    def add_flags_recursive(self, **flags) -> Cell:
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> dict:
        return self.__dict__.setdefault("_flags", {})

    # ------------------------------------------------------------ printing
    def extra_repr(self) -> str:
        """Text shown between the parentheses of ``repr``; layers override it (or
        MindSpore's name for it, :meth:`extend_repr`)."""
        return self.extend_repr()

    def extend_repr(self) -> str:
        """MindSpore's hook for the text between the parentheses of ``repr``."""
        return ""

    def __repr__(self) -> str:
        lines = [line for line in self.extra_repr().split("\n") if line]
        for name, cell in self._cells.items():
            if cell is None:
                continue
            child = repr(cell).replace("\n", "\n  ")
            lines.append(f"({name}): {child}")
        if not lines:
            return f"{type(self).__name__}()"
        if len(lines) == 1 and not self.name_cells():
            return f"{type(self).__name__}({lines[0]})"
        body = "\n  ".join(lines)
        return f"{type(self).__name__}(\n  {body}\n)"
