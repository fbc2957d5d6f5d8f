"""Loss-scale managers (``FixedLossScaleManager``, ``DynamicLossScaleManager``): what
``Model`` builds its training step with. With ``drop_overflow_update`` the step is
``TrainOneStepWithLossScaleCell`` with the manager's update cell, which skips the update of a
step whose gradients overflow; otherwise ``TrainOneStepCell`` with ``sens`` = the scale (the
optimizer's ``loss_scale`` divides it out)."""
from __future__ import annotations

from ..nn import Cell, DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell


def _check_positive_float(value, name: str, owner: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(f"For '{owner}', the '{name}' must be a positive number, but got "
                         f"{value!r}.")
    return float(value)


class LossScaleManager:
    """Base of loss-scale managers."""

    def get_loss_scale(self) -> float:
        raise NotImplementedError

    def update_loss_scale(self, overflow: bool) -> None:
        raise NotImplementedError

    def get_drop_overflow_update(self) -> bool:
        raise NotImplementedError

    def get_update_cell(self) -> Cell | None:
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant scale; ``drop_overflow_update`` makes the training step also return the
    overflow flag and the scale, as MindSpore's loss-scale step does."""

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True):
        self._loss_scale = _check_positive_float(loss_scale, "loss_scale",
                                                 "FixedLossScaleManager")
        if self._loss_scale < 1:
            raise ValueError(f"For 'FixedLossScaleManager', the 'loss_scale' must be >= 1, but "
                             f"got {loss_scale}.")
        self._drop_overflow_update = bool(drop_overflow_update)

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        return self._drop_overflow_update

    def update_loss_scale(self, overflow: bool) -> None:
        """A fixed scale does not change."""

    def get_update_cell(self) -> Cell | None:
        """The step's scale cell (None when overflowing updates are not dropped)."""
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """Divide the scale by ``scale_factor`` on overflow; multiply it after ``scale_window``
    steps without one."""

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2,
                 scale_window: int = 2000):
        self.loss_scale = _check_positive_float(init_loss_scale, "init_loss_scale",
                                                "DynamicLossScaleManager")
        if isinstance(scale_factor, bool) or not isinstance(scale_factor, int) \
                or scale_factor <= 1:
            raise ValueError(f"For 'DynamicLossScaleManager', the 'scale_factor' must be an int "
                             f"> 1, but got {scale_factor!r}.")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) \
                or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleManager', the 'scale_window' must be a "
                             f"positive int, but got {scale_window!r}.")
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.minimum_loss_scale = 1
        self.cur_iter = 1
        self.last_overflow_iter = 0

    def get_loss_scale(self) -> float:
        return self.loss_scale

    def get_drop_overflow_update(self) -> bool:
        return True

    def get_update_cell(self) -> Cell:
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)

    def update_loss_scale(self, overflow: bool) -> None:
        if overflow:
            self.loss_scale = max(self.loss_scale / self.scale_factor, self.minimum_loss_scale)
            self.last_overflow_iter = self.cur_iter
        elif (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
            self.loss_scale *= self.scale_factor
        self.cur_iter += 1
