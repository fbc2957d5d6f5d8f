"""``Parameter`` (a named, live weight) and ``ParameterTuple``."""
from __future__ import annotations

import weakref

import numpy as np

import graphkiln.common.dtype as mstype

from .capture_flags import refuse
from .tensor import Tensor

# objects (Cells) with an attribute that is a list of Parameters: MindSpore's graph code
# reads such an attribute as a tuple, so ``GradOperation`` gives its gradients as a tuple
_PARAMETER_LIST_HOLDERS: weakref.WeakSet = weakref.WeakSet()


def note_attribute(owner, value) -> None:
    """Remember ``owner`` when ``value``, set as its attribute, is a list of Parameters."""
    if type(value) is list and value and all(isinstance(p, Parameter) for p in value):
        _PARAMETER_LIST_HOLDERS.add(owner)


def is_parameter_list_attribute(value) -> bool:
    """Whether the list ``value`` is an attribute of an object (a Cell's list of weights,
    ``self.params = net.trainable_params()``), not a list built in graph code."""
    return any(value is v for owner in list(_PARAMETER_LIST_HOLDERS)
               for v in vars(owner).values())


# an unnamed Parameter gets a unique generated name (a Cell renames it after its attribute)
GENERATED_NAME_PREFIX = "Parameter#"
_generated_count = [0]


def _generated_name() -> str:
    _generated_count[0] += 1
    return f"{GENERATED_NAME_PREFIX}{_generated_count[0] - 1}"


def is_generated_name(name) -> bool:
    """Whether ``name`` is one graphkiln generated for an unnamed Parameter."""
    return isinstance(name, str) and name.startswith(GENERATED_NAME_PREFIX)


_is_parameter_generated = is_generated_name  # MindSpore's private name for it


# what a Parameter is besides its Tensor (a stand-in shares them)
_FLAGS = ("name", "requires_grad", "layerwise_parallel", "_user_named", "comm_fusion",
          "_cache_enable")


class Parameter(Tensor):
    """A weight: a Tensor with a name whose array the compiled graphs read and write in place."""

    # ``_kept`` (optional, see :func:`kept_with`) is not one of the weight's flags
    __slots__ = (*_FLAGS, "_kept")
    _is_param = True

    def __init__(self, default_input, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True):
        # a trace would make it (and the values its initializer draws) a constant of the
        # graph, where PyNative makes a new one on every call
        refuse("a Parameter created inside a bytecode-captured function")
        if name is not None and not isinstance(name, str):
            raise ValueError(f"The type of the Parameter's name should be 'string' or 'None', "
                             f"but got {type(name)}.")
        if isinstance(default_input, Tensor):
            if default_input.is_symbolic:
                raise TypeError("For 'Parameter', the default_input must be a concrete "
                                "Tensor, not a value computed inside a graph.")
            arr = default_input.asnumpy().copy()
            t = default_input.dtype
        elif isinstance(default_input, (int, float, bool)):
            t = mstype.scalar_type(default_input)
            arr = np.asarray(default_input, dtype=t.np_dtype)
        else:
            arr = np.array(default_input)
            t = mstype.from_numpy(arr.dtype)
        self._data = np.array(arr, copy=True, order="C")
        self._dtype = t
        self._node = None
        self._abs = None
        self._user_named = name is not None
        self.name = name if name is not None else _generated_name()
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.comm_fusion = 1  # the gradient all-reduce group (``Cell.set_comm_fusion``)
        self._cache_enable = False

    @property
    def cache_enable(self) -> bool:
        """MindSpore's flag for a weight kept in the parameter server's host cache; it
        changes nothing in a standalone run (graphkiln has no such cache), but is kept and
        checked as MindSpore does."""
        return self._cache_enable

    @cache_enable.setter
    def cache_enable(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError("The argument `cache_enable` must be bool type.")
        self._cache_enable = value

    @property
    def inited_param(self) -> None:
        """The new Parameter MindSpore's ``init_data`` returns when it cannot fill the
        parameter in place; graphkiln's always fills it in place, so this is None (as
        MindSpore's is then)."""
        return None

    @property
    def data(self) -> Parameter:
        """The parameter's value; it is the parameter itself, so a read inside a graph stays
        a read of the weight (MindSpore returns an equal Tensor)."""
        return self

    def set_data(self, data, slice_shape: bool = False) -> Parameter:
        """Replace the value (shape and dtype may change, as in MindSpore)."""
        if isinstance(data, Tensor):
            arr = data.asnumpy()
            self._dtype = data.dtype
        else:
            arr = np.asarray(data, dtype=self._dtype.np_dtype)
        self._data = np.array(arr, copy=True)
        return self

    def clone(self, init="same") -> Parameter:
        """A copy of this parameter: its values, or with ``init`` (an initializer, its name
        or a number) new values of its shape and dtype drawn from ``init``."""
        data = self._data.copy() if isinstance(init, str) and init == "same" else \
            Tensor._initial_values(init, tuple(self.shape), self._dtype)
        copy = Parameter(Tensor._from_array(data, self._dtype), self.name, self.requires_grad)
        copy.cache_enable = self._cache_enable
        return copy

    def __repr__(self) -> str:
        return (f"Parameter (name={self.name}, shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__  # MindSpore prints a Parameter's description, not its values

    def __reduce__(self):
        return (Parameter, (Tensor._from_array(self._data, self._dtype), self.name,
                            self.requires_grad))

    def __deepcopy__(self, memo):
        return self.clone()


def stand_in(param: Parameter) -> Parameter:
    """Another Parameter object for the weight ``param`` (its array, name and flags): a
    trace tells the uses of ``param`` given as a function's input from its uses as a weight
    by it (autodiff differentiates the two separately, as MindSpore does)."""
    twin = object.__new__(Parameter)
    for slot in ("_data", "_dtype", "_node", "_abs", *_FLAGS):
        setattr(twin, slot, getattr(param, slot))
    return twin


def kept_with(param: Parameter) -> dict:
    """A dict that lives as long as ``param`` (and no longer): caches keyed on a weight keep
    their entries here, so what they compiled for it (which holds it) goes with it."""
    try:
        return param._kept
    except AttributeError:
        param._kept = {}
        return param._kept


class ParameterTuple(tuple):
    """A tuple of Parameters (checks its elements, names must be unique)."""

    def __new__(cls, iterable):
        items = tuple(iterable)
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"For 'ParameterTuple', all elements must be Parameter, "
                                f"but got {type(p).__name__}.")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: str = "same") -> ParameterTuple:
        out = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            out.append(c)
        return ParameterTuple(out)


class Buffer(Tensor):
    """A Tensor a Cell keeps as state but does not train (``Cell.register_buffer``):
    assigning one to a cell attribute registers it in the cell's ``_buffers``."""

    __slots__ = ()


_Buffer = Buffer  # MindSpore's name (``from mindspore.common.parameter import _Buffer``)
