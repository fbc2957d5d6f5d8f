"""``WithBNNLossCell``: a network's loss plus the KL losses of its Bayesian layers."""
from __future__ import annotations

from ...cell import Cell
from .dense_variational import _Variational


def _check_factor(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"The type of `{name}` must be `int` or `float`")
    if value < 0:
        raise ValueError(f"The value of `{name}` should >= 0")


class WithBNNLossCell(Cell):
    """``loss_fn(backbone(x), label) * dnn_factor + sum(KL losses) * bnn_factor``."""

    def __init__(self, backbone: Cell, loss_fn: Cell, dnn_factor=1, bnn_factor=1):
        super().__init__(auto_prefix=False)
        _check_factor("dnn_factor", dnn_factor)
        _check_factor("bnn_factor", bnn_factor)
        self._backbone = backbone
        self._loss_fn = loss_fn
        self.dnn_factor = dnn_factor
        self.bnn_factor = bnn_factor
        self.kl_loss = []
        self._add_kl_loss(backbone)

    def construct(self, x, label):
        backbone_loss = self._loss_fn(self._backbone(x), label)
        kl_loss = 0
        for kl_loss_func in self.kl_loss:
            kl_loss += kl_loss_func()
        return backbone_loss * self.dnn_factor + kl_loss * self.bnn_factor

    def _add_kl_loss(self, net: Cell) -> None:
        for layer in net.name_cells().values():
            if isinstance(layer, _Variational):
                self.kl_loss.append(layer.compute_kl_loss)
            else:
                self._add_kl_loss(layer)

    @property
    def backbone_network(self) -> Cell:
        return self._backbone
