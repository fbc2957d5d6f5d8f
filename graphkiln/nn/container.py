"""Containers: ``SequentialCell`` (cells, a list or an OrderedDict), ``CellList`` and
``CellDict``, with MindSpore's child and parameter naming."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator

from ..compile.cell_state import note_cell_write
from .cell import Cell


def _check_cell(owner: str, cell) -> Cell:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{owner}', each cell must be subclass of Cell, but got "
                        f"{type(cell).__name__}.")
    return cell


class _IndexedCells(Cell):
    """Shared machinery of ``CellList`` and ``SequentialCell``: children are stored in
    ``_cells`` in order; appended cells get MindSpore's ``<prefix><index>.`` names."""

    def _prefix(self) -> str:
        """The list's own prefix, read as MindSpore reads it off the first parameter name of
        its first element with parameters (key K): the dotted parts before the last part
        equal to K, or before the first such part at which the next element's first
        parameter name holds that element's key. (Numeric keys make this ambiguous:
        MindSpore gives ``0.1.0.gamma`` to the gamma of a list's second element's first cell
        when the first element's names start ``0.0.``.)"""
        firsts = []  # (key, first parameter name) of the first two elements with parameters
        for key, cell in self._cells.items():
            first = None if cell is None else next(cell.parameters_and_names(), None)
            if first is not None:
                firsts.append((key, first[1].name))
                if len(firsts) == 2:
                    break
        if not firsts:
            return ""
        key, name = firsts[0]
        parts = name.split(".")
        after = firsts[1][1].split(".") if len(firsts) > 1 else []
        prefix = ""
        for i, part in enumerate(parts):
            if part == key:
                prefix = "".join(p + "." for p in parts[:i])
                if i < len(after) and after[i] == firsts[1][0]:
                    break
        return prefix

    def _norm_index(self, index: int) -> int:
        n = len(self)
        if not isinstance(index, int):
            raise TypeError(f"For '{type(self).__name__}', the type of 'index' must be int "
                            f"or slice, but got {type(index).__name__}.")
        if not isinstance(index, int) or isinstance(index, bool) or not -n <= index < n:
            raise IndexError(f"For '{type(self).__name__}', the value of 'index' must be a "
                             f"number in range [{-n}, {n}), but got {index}.")
        return index % n

    def _append(self, cell: Cell) -> None:
        _check_cell(type(self).__name__, cell)
        if self._auto_prefix:
            cell.update_parameters_name(f"{self._prefix()}{len(self)}.")
        note_cell_write()  # graphs traced with the old cells are stale
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
        note_cell_write()
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
        note_cell_write()
        self._cells.clear()
        for i, (key, cell) in enumerate(items):
            key = str(i) if key.isdigit() else key
            if rename_prefix is not None and cell is not None:
                cell.update_parameters_name(f"{rename_prefix}{key}.")
            self._cells[key] = cell


class CellList(_IndexedCells):
    """A list of cells, indexable like a Python list; its cells are registered
    sub-cells, so their parameters belong to the network. It has no ``construct``;
    ``vmap`` maps its cells over a batch (model ensembling)."""

    __gk_cell_ensemble__ = True

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
            if isinstance(cell, CellDict):
                raise TypeError(f"For 'CellList', the type of cell can not be CellDict, but got "
                                f"{type(cell).__name__}.")
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


class CellDict(Cell):
    """Cells held by name, like an ordered dict; the keys become the child names."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        if len(args) > 1:
            raise TypeError(f"CellDict expected at most 1 positional argument, got "
                            f"{len(args)}.")
        if args:
            self.update(args[0])
        if kwargs:
            self.update(kwargs)

    def _check_key(self, key) -> str:
        if not isinstance(key, str):
            raise TypeError(f"For 'CellDict', the type of key should be str, but got "
                            f"{type(key).__name__}.")
        if hasattr(self, key) and key not in self._cells:
            raise KeyError(f"For 'CellDict', the key can not be same with the attributes of "
                           f"Cell, but got key {key}.")
        if "." in key:
            raise KeyError(f"For 'CellDict', the key can not contain \".\", got \"{key}\".")
        if not key:
            raise KeyError("For 'CellDict', key can not be empty string \"\".")
        return key

    @staticmethod
    def _check_value(cell) -> Cell:
        if cell is None:
            raise TypeError("For 'CellDict', cell can not be None.")
        _check_cell("CellDict", cell)
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(f"For 'CellDict', the type of cell can not be CellDict, CellList or "
                            f"SequentialCell, but got {type(cell).__name__}.")
        return cell

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        self._check_key(key)
        self.insert_child_to_cell(key, self._check_value(cell))

    def __delitem__(self, key: str) -> None:
        note_cell_write()
        del self._cells[key]

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __contains__(self, key) -> bool:
        return key in self._cells

    def clear(self) -> None:
        note_cell_write()
        self._cells.clear()

    def pop(self, key: str) -> Cell:
        cell = self[key]
        del self[key]
        return cell

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def update(self, cells) -> None:
        """Add ``cells``: a mapping or an iterable of (name, cell) pairs."""
        pairs = cells.items() if hasattr(cells, "items") else cells
        for i, pair in enumerate(pairs):
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ValueError(f"For 'CellDict', the element {i} of 'cells' must be a "
                                 f"(key, cell) pair, but got {pair!r}.")
            self[pair[0]] = pair[1]

    def construct(self, *inputs):
        raise NotImplementedError("The 'construct' of CellDict is not implemented: call a "
                                  "cell it holds instead.")
