"""``mint.optim.FusedAdamW``: AdamW whose parameter groups all use the same ``amsgrad``
(MindSpore fuses the groups' weights into one buffer on Ascend; graphkiln computes the
AdamW step of ``experimental.optim``)."""
from __future__ import annotations

from .adamw import AdamW


def check_one_amsgrad(params, amsgrad: bool, owner: str) -> None:
    """The groups' ``amsgrad`` flags must all be equal."""
    params = list(params) if isinstance(params, (list, tuple)) else []
    if params and isinstance(params[0], dict):
        flags = [bool(group.get("amsgrad", amsgrad)) for group in params]
        if len(set(flags)) != 1:
            raise ValueError(f"{owner} does not support mixed amsgrad across param_groups. "
                             f"Found amsgrad flags per group: {flags}. Please keep amsgrad "
                             f"consistent.")


class FusedAdamW(AdamW):
    """State ``exp_avg.<w>``, ``exp_avg_sq.<w>``, ``max_exp_avg_sq.<w>`` and ``state_step``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        check_one_amsgrad(params, amsgrad, type(self).__name__)
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group; its ``amsgrad`` must be the optimizer's."""
        if self.param_groups:
            amsgrad = bool(self.param_groups[0]["amsgrad"])
            if bool(param_group.get("amsgrad", amsgrad)) != amsgrad:
                raise ValueError(f"{type(self).__name__} does not support mixed amsgrad "
                                 f"across param_groups. Init amsgrad={amsgrad}, but new group "
                                 f"amsgrad={not amsgrad}. Please keep amsgrad consistent for "
                                 f"all groups.")
        super().add_param_group(param_group)
