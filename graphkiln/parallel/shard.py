"""``mindspore.parallel.Layout``: a named device matrix, and the tensor layouts (which device
axes split which tensor dimension) that sharding strategies are written with. graphkiln keeps
layouts for ``to_dict()`` and strategy settings; it runs the model replicated (data parallel)."""
from __future__ import annotations

import math

_UNSPLIT = "None"
_INTERLEAVED = "interleaved_parallel"


class Layout:
    """``Layout(device_matrix, alias_name)``; calling it with one alias (or tuple of aliases,
    or ``"None"``) per tensor dimension gives a new Layout with that tensor map."""

    def __init__(self, device_matrix: tuple, alias_name: tuple, rank_list: list | None = None):
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in device_matrix):
            raise TypeError("The element of device_matrix must be int type")
        for name in alias_name:
            if not isinstance(name, str):
                raise TypeError(f"The element of alias_name must be str type, but got:"
                                f"{type(name)}")
            if not name:
                raise ValueError("The element of alias_name can not be empty.")
            if name == _UNSPLIT:
                raise ValueError("The element of alias_name can not set 'None', because 'None' "
                                 "means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if _INTERLEAVED in alias_name and alias_name[-1] != _INTERLEAVED:
            raise ValueError(f"When alias_name {alias_name} contains keyword "
                             f"'{_INTERLEAVED}', it should be at the last dim of alias_name.")
        devices = math.prod(device_matrix)
        if rank_list is None:
            rank_list = list(range(devices))
        elif not isinstance(rank_list, list) or not all(isinstance(r, int) for r in rank_list):
            raise TypeError(f"The rank_list should be a list of int, but got {rank_list!r}.")
        elif len(rank_list) != devices:
            raise ValueError(f"The length of rank_list should be equal to the product of "
                             f"device_matrix, but got {len(rank_list)} and {devices}.")
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._rank_list = rank_list
        self._tensor_map = None

    def _axis(self, name: str, used: set) -> int:
        """A device axis in MindSpore's numbering (the last alias is 0)."""
        if name == _UNSPLIT:
            return -1
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in used:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        used.add(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map) -> Layout:
        used: set = set()
        mapped = tuple(tuple(self._axis(n, used) for n in dim) if isinstance(dim, tuple)
                       else self._axis(dim, used) for dim in tensor_map)
        layout = Layout(self._device_shape, self._alias_name, list(self._rank_list))
        layout._tensor_map = mapped
        return layout

    def to_dict(self) -> dict:
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": _INTERLEAVED in self._alias_name,
                "alias_name": self._alias_name, "rank_list": self._rank_list}
