"""Random-number generator states (MindSpore's ``mindspore.common.generator``): a
``Generator`` holds a ``seed`` and an ``offset`` as weights; ``_step(n)`` returns both and
advances the offset by ``n`` (an ``AssignAdd``, so the step is ordered inside graphs too).
``default_generator`` and the module functions act on the process-wide one."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.jit_class import jit_class
from ..common.parameter import Parameter
from ..common.tensor import Tensor

__all__ = ["Generator", "default_generator", "seed", "manual_seed", "initial_seed",
           "get_rng_state", "set_rng_state"]


@jit_class
class Generator:
    """A ``(seed, offset)`` state for random functions; the same state gives the same
    random sequence."""

    def __init__(self):
        self._seed = Parameter(Tensor(0, mstype.int64), requires_grad=False)
        self._offset = Parameter(Tensor(0, mstype.int64), requires_grad=False)
        self._initial_seed = 0

    def set_state(self, state: Tensor) -> None:
        """Restore a state that :meth:`get_state` returned."""
        if not isinstance(state, Tensor) or tuple(state.shape) != (2,):
            raise TypeError(f"For 'Generator.set_state', the state must be a Tensor that "
                            f"get_state returned, but got {state!r}.")
        seed_, offset = (int(v) for v in state.asnumpy())
        self._seed.set_data(Tensor(seed_, mstype.int64))
        self._offset.set_data(Tensor(offset, mstype.int64))

    def get_state(self) -> Tensor:
        """The state: an int64 Tensor ``[seed, offset]``."""
        return Tensor(np.array([int(self._seed.asnumpy()), int(self._offset.asnumpy())],
                               np.int64))

    def seed(self) -> int:
        """Seed the generator with a fresh random number and return it."""
        value = int(np.random.SeedSequence().entropy % (2 ** 63))
        self.manual_seed(value)
        return value

    def manual_seed(self, seed: int) -> Generator:  # pylint: disable=redefined-outer-name
        """Set the seed (the offset restarts at 0)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError("Seed must be an integer.")
        self._initial_seed = seed
        self._seed.set_data(Tensor(seed, mstype.int64))
        self._offset.set_data(Tensor(0, mstype.int64))
        return self

    def initial_seed(self) -> int:
        """The seed last set."""
        return self._initial_seed

    def _step(self, step):
        """The current ``(seed, offset)``; then the offset advances by ``step``."""
        current = (F.add(self._seed, 0), F.add(self._offset, 0))
        F.assign_add(self._offset, F.cast(step, mstype.int64))
        return current


default_generator = Generator()
default_generator.manual_seed(int(np.random.SeedSequence().entropy % (2 ** 63)))


def seed() -> int:  # pylint: disable=redefined-outer-name
    """Seed the default generator with a random number; returns it."""
    return default_generator.seed()


def manual_seed(seed: int) -> Generator:  # pylint: disable=redefined-outer-name
    """Set the default generator's seed."""
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    """The default generator's initial seed."""
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state."""
    return default_generator.get_state()


def set_rng_state(state: Tensor) -> None:
    """Restore the default generator's state."""
    default_generator.set_state(state)
