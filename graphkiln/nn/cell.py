"""``Cell`` (the unit of a network), ``CellList`` and ``SequentialCell``.

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
from collections.abc import Iterator

from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor
from ..compile.api import call_cell

_DEFAULT_PARAM_NAME = "Parameter"


class Cell:
    """Base class of every network: subclasses define ``construct``; calling the cell
    runs it, compiled in GRAPH_MODE and eagerly in PYNATIVE_MODE."""

    __gk_cell__ = True  # common.jit_class.CELL_MARK: jit_class refuses cells

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None):
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
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

    def __call__(self, *args, **kwargs):
        return call_cell(self, args, kwargs)

    @property
    def cls_name(self) -> str:
        return type(self).__name__

    @property
    def auto_prefix(self) -> bool:
        return self._auto_prefix

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
        for reg in ("_params", "_cells"):
            table = d.get(reg)
            if table is not None and name in table:
                return table[name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute "
                             f"'{name}'.")

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        params = d.get("_params")
        cells = d.get("_cells")
        if isinstance(value, Parameter):
            self._set_param_attr(name, value)
        elif isinstance(value, ParameterTuple):
            self._set_param_tuple_attr(name, value)
        elif isinstance(value, Cell):
            self._set_cell_attr(name, value)
        elif params is not None and name in params:
            if value is None:
                params[name] = None
            elif isinstance(value, Tensor):
                params[name].set_data(value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, can not "
                                f"assign this type: '{type(value)}' as a parameter.")
        elif cells is not None and name in cells:
            if value is not None:
                raise TypeError(f"Sub cell '{name}' already exists in network, can not "
                                f"assign this type: '{type(value)}' as a cell.")
            cells[name] = None
        else:
            object.__setattr__(self, name, value)

    def _set_param_attr(self, name: str, param: Parameter) -> None:
        params = self._registry("_params")
        if param.name == _DEFAULT_PARAM_NAME:
            param.name = name
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
            if p.name == _DEFAULT_PARAM_NAME:
                p.name = f"{p.name}${self._tuple_id}"
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
        d = self.__dict__
        if name in d.get("_params", {}):
            del d["_params"][name]
        elif name in d.get("_cells", {}):
            del d["_cells"][name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._params) | set(self._cells))

    # ------------------------------------------------------------- insertion
    def insert_param_to_cell(self, param_name: str, param, check_name_contain_dot=True):
        """Register ``param`` under ``param_name`` (MindSpore's checks and errors)."""
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
        if isinstance(param, Parameter) and param.name == _DEFAULT_PARAM_NAME:
            param.name = param_name
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name: str, child_cell) -> None:
        """Register ``child_cell`` under ``child_name`` (no renaming of its parameters)."""
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

    # ------------------------------------------------------------- modes
    def set_train(self, mode: bool = True) -> Cell:
        """Training mode on (``Dropout`` drops) or off, for this cell and all sub-cells."""
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = bool(mode)
        return self

    def set_grad(self, requires_grad: bool = True) -> Cell:
        self.__dict__["requires_grad"] = bool(requires_grad)
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
        """Text shown between the parentheses of ``repr``; layers override it."""
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


# ------------------------------------------------------------------ containers

def _check_cell(owner: str, cell) -> Cell:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{owner}', each cell must be subclass of Cell, but got "
                        f"{type(cell).__name__}.")
    return cell


class _IndexedCells(Cell):
    """Shared machinery of ``CellList`` and ``SequentialCell``: children are stored in
    ``_cells`` in order; appended cells get MindSpore's ``<prefix><index>.`` names."""

    def _prefix(self) -> str:
        # The list's own prefix, read off an existing parameter (MindSpore's way): an
        # element at key K whose parameter at path P is named X.K.P has prefix "X.".
        for key, cell in self._cells.items():
            if cell is None:
                continue
            for path, param in cell.parameters_and_names():
                suffix = f"{key}.{path}"
                if param.name.endswith(suffix):
                    return param.name[: len(param.name) - len(suffix)]
                return ""
        return ""

    def _norm_index(self, index: int) -> int:
        n = len(self)
        if not isinstance(index, int) or isinstance(index, bool) or not -n <= index < n:
            raise IndexError(f"For '{type(self).__name__}', the value of 'index' must be a "
                             f"number in range [{-n}, {n}), but got {index}.")
        return index % n

    def _append(self, cell: Cell) -> None:
        _check_cell(type(self).__name__, cell)
        if self._auto_prefix:
            cell.update_parameters_name(f"{self._prefix()}{len(self)}.")
        self._cells[str(len(self))] = cell

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(list(self._cells.values()))

    def __getitem__(self, index):
        if isinstance(index, slice):
            # A view: unlike MindSpore, taking a slice never renames the parameters of
            # the cells, which still belong to this container.
            part = type(self)()
            part._set_items(list(self._cells.items())[index])
            return part
        return list(self._cells.values())[self._norm_index(index)]

    def __setitem__(self, index, cell) -> None:
        i = self._norm_index(index)
        _check_cell(type(self).__name__, cell)
        key = list(self._cells)[i]
        if self._auto_prefix:
            cell.update_parameters_name(f"{self._prefix()}{key}.")
        self._cells[key] = cell

    def __delitem__(self, index) -> None:
        items = list(self._cells.items())
        if isinstance(index, slice):
            del items[index]
        else:
            del items[self._norm_index(index)]
        prefix = self._prefix() if self._auto_prefix else ""
        self._set_items(items, rename_prefix=prefix if self._auto_prefix else None)

    def _set_items(self, items: list, rename_prefix: str | None = None) -> None:
        """Store ``(key, cell)`` pairs, numbering digit keys by position; with
        ``rename_prefix`` also rename each cell's parameters ``<prefix><key>.``."""
        self._cells.clear()
        for i, (key, cell) in enumerate(items):
            key = str(i) if key.isdigit() else key
            if rename_prefix is not None and cell is not None:
                cell.update_parameters_name(f"{rename_prefix}{key}.")
            self._cells[key] = cell


class CellList(_IndexedCells):
    """A list of cells, indexable like a Python list; its cells are registered
    sub-cells, so their parameters belong to the network. It has no ``construct``."""

    def __init__(self, *args, **kwargs):
        auto_prefix = kwargs.pop("auto_prefix", True)
        super().__init__(auto_prefix=auto_prefix)
        if kwargs:
            raise TypeError(f"For 'CellList', unexpected keyword arguments {sorted(kwargs)}.")
        if len(args) > 1:
            raise TypeError(f"For 'CellList', takes at most one positional argument (a list "
                            f"of cells), but got {len(args)}.")
        if args:
            self.extend(args[0])

    def append(self, cell: Cell) -> None:
        self._append(cell)

    def extend(self, cells) -> CellList:
        if not isinstance(cells, (list, tuple, CellList)):
            raise TypeError(f"For 'CellList', the new cells wanted to append should be "
                            f"instance of list, tuple or CellList, but got "
                            f"{type(cells).__name__}.")
        for cell in cells:
            self._append(cell)
        return self

    def insert(self, index: int, cell: Cell) -> None:
        _check_cell("CellList", cell)
        n = len(self)
        if not isinstance(index, int) or not -n <= index <= n:
            raise IndexError(f"For 'CellList', the value of 'index' must be a number in "
                             f"range [{-n}, {n}], but got {index}.")
        i = index % n if (n and index < 0) else index
        prefix = self._prefix() if self._auto_prefix else None
        items = list(self._cells.items())
        items.insert(i, ("0", cell))
        self._set_items(items, rename_prefix=prefix)

    def construct(self, *inputs):
        raise NotImplementedError("For 'CellList', the method 'construct' is not defined: "
                                  "call its cells one by one.")


class SequentialCell(_IndexedCells):
    """Cells applied in order; built from cells, a list of cells, or an OrderedDict
    (whose keys become the sub-cell names)."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, cell in args[0].items():
                self.insert_child_to_cell(name, cell)
                if cell is not None:
                    cell.update_parameters_name(name + ".")
        elif len(args) == 1 and isinstance(args[0], list):
            for i, cell in enumerate(args[0]):
                self.insert_child_to_cell(str(i), cell)
                cell.update_parameters_name(f"{i}.")
        else:
            for i, cell in enumerate(args):
                if not isinstance(cell, Cell):
                    raise TypeError(f"For 'SequentialCell', the 'args[{i}]' must be Cell, "
                                    f"list or orderedDict, but got {type(cell).__name__}")
                self.insert_child_to_cell(str(i), cell)
                cell.update_parameters_name(f"{i}.")

    def append(self, cell: Cell) -> None:
        self._append(cell)

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data
