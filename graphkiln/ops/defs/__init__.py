"""Every primitive's definition; importing this package fills the registry (the structural
primitives are defined by the IR layer, :mod:`graphkiln.ir.structural_prims`)."""
from ...ir import structural_prims  # noqa: F401
from . import (  # noqa: F401
    array,
    boxes,
    collective,
    conv,
    data_dependent,
    fused,
    grad_ops,
    gradient,
    image,
    introspect,
    math,
    nn,
    nn_losses,
    norm,
    optim,
    optim_sparse,
    pool,
    py_execute,
    scalar,
    scatter,
    sequence,
    side_effects,
    special,
    summary,
)
