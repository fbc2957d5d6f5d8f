"""Registry-walk samples (tests/ops/test_registry.py, test_batching_rules.py, test_bprop.py)
for the ``tests/st/ops`` slice every 15th file from the 11th: ``FusedAdaFactor`` and
``FusedAdaFactorWithGlobalNorm`` (``ops/defs/optim.py``: memory effects, not differentiable,
refused by vmap), ``MaxPoolGradWithArgmax`` (``ops/defs/pool_argmax.py``) and
``SparseMatrixMatMul`` (``ops/defs/sparse_matrix_matmul.py``: not differentiable, refused by
vmap as its rows are data)."""
import numpy as np

from graphkiln import Parameter, Tensor

NON_DIFFERENTIABLE = {
    **{name: "an optimizer step: updates weights in place (a memory effect, like Assign)"
       for name in ("FusedAdaFactor", "FusedAdaFactorWithGlobalNorm")},
    "SparseMatrixMatMul": "MindSpore 2.10 defines no gradient for it",
}

# flat indices into each batch entry's C*H*W = 32 elements: a repeat adds up, -1 adds
# nothing, 40 lands in the next entry (as MindSpore's kernel)
_ARGMAX = np.array([[[[0, 5], [17, -1]], [[9, 9], [40, 20]]],
                    [[[3, 31], [12, 12]], [[30, 1], [8, 25]]]], np.int32)


def _weights(*shapes, value=0.5):
    return tuple(Parameter(Tensor(np.full(s, value, np.float32)), name=f"w{i}")
                 for i, s in enumerate(shapes))


def _ada_factor_inputs(f32, shape):
    return ((1e-30, 1e-3), 1.0, 0.9, 0.8, 1e-2, 0.03, f32(*shape),
            *_weights(shape, shape, shape[:-1], shape[:-2] + shape[-1:], shape))


def registry_samples(f32) -> dict:
    """Samples for test_registry.py, built with its makers."""
    csr = tuple(Tensor(np.array(v, np.int32)) for v in ([4, 5], [0, 4], [0, 1, 1, 3, 4],
                                                         [0, 3, 4, 0]))
    flags = {"enable_scale_parameter": True, "enable_first_moment": True,
             "enable_weight_decay": True}
    return {
        "FusedAdaFactor": [(_ada_factor_inputs(f32, (2, 3, 2)), {}),
                           (_ada_factor_inputs(f32, (4,)), flags)],
        "FusedAdaFactorWithGlobalNorm": [
            ((*_ada_factor_inputs(f32, (3, 5)), Tensor(np.float32(2.0))), flags)],
        "MaxPoolGradWithArgmax": [
            ((f32(2, 2, 4, 4), f32(2, 2, 2, 2), Tensor(_ARGMAX)), {"kernel_size": 2}),
            ((f32(2, 2, 4, 4), f32(2, 2, 2, 2).astype(np.float16),
              Tensor(_ARGMAX.astype(np.int64))), {"pad_mode": "SAME"})],
        "SparseMatrixMatMul": [
            ((*csr, f32(4), f32(5, 3)), {}),
            ((*csr, f32(4), f32(3, 4)), {"transpose_x1": True, "transpose_x2": True,
                                         "transpose_output": True})],
    }


def vmap_samples(B, U, f32) -> dict:  # noqa: N803 - the harness's maker names
    """Samples for test_batching_rules.py, built with its makers."""
    return {"MaxPoolGradWithArgmax": [
        lambda r: ((B(f32(r, 3, 2, 2, 4, 4)), B(f32(r, 3, 2, 2, 2, 2)),
                    B(np.stack([_ARGMAX, _ARGMAX[::-1], _ARGMAX % 7]))), {}),
        lambda r: ((U(f32(r, 2, 2, 4, 4)), B(f32(r, 3, 2, 2, 2, 2)), U(_ARGMAX)),
                   {"kernel_size": 2, "strides": 2})]}


def bprop_samples(n, s, u) -> dict:
    """Samples for test_bprop.py, built with its makers."""
    return {"MaxPoolGradWithArgmax": [s(n(2, 2, 4, 4), n(2, 2, 2, 2), _ARGMAX),
                                      s(n(2, 2, 4, 4), n(2, 2, 2, 2), _ARGMAX % 5)]}
