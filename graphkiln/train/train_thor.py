"""``mindspore.train.train_thor``: ``ConvertModelUtils.convert_to_thor_model`` turns a Model
into a THOR second-order training Model when its optimizer is THOR, and returns it unchanged
otherwise. MindSpore's THOR runs on Ascend and GPU only; graphkiln has no THOR optimizer
(``nn.thor`` says so), so training scripts that choose their optimizer by flag run unchanged
with the first-order ones."""
from __future__ import annotations


class ConvertModelUtils:
    """Model conversion for THOR training."""

    @staticmethod
    def convert_to_thor_model(model, network, loss_fn=None, optimizer=None, metrics=None,
                              amp_level: str = "O0", loss_scale_manager=None,
                              keep_batchnorm_fp32: bool = False):
        """``model`` itself: only a THOR optimizer (which graphkiln does not have) would
        change it."""
        return model


__all__ = ["ConvertModelUtils"]
