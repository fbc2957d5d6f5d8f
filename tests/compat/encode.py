"""Encode results (Tensors, numbers, dtypes, nested tuples/lists) as JSON-able values, the
same way for MindSpore (when recording) and graphkiln (when testing)."""
import numpy as np


def encode(v):
    if hasattr(v, "asnumpy"):
        a = v.asnumpy()
        out = {"dtype": str(v.dtype), "shape": list(a.shape),
               "value": np.asarray(np.real(a), np.float64).tolist()}
        if np.iscomplexobj(a):
            out["imag"] = np.asarray(np.imag(a), np.float64).tolist()
        return out
    if isinstance(v, (tuple, list)):
        return {"seq": type(v).__name__, "items": [encode(e) for e in v]}
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    if v is None or isinstance(v, str):
        return v
    return {"repr": str(v)}


def assert_same(got, want, path="result", rtol=1e-5, atol=1e-6):
    """``got`` (encoded graphkiln result) equals ``want`` (recorded MindSpore result)."""
    if isinstance(want, dict) and "value" in want:
        assert isinstance(got, dict) and "value" in got, f"{path}: want a Tensor, got {got}"
        assert got["dtype"] == want["dtype"], f"{path}: dtype {got['dtype']} != {want['dtype']}"
        assert got["shape"] == want["shape"], f"{path}: shape {got['shape']} != {want['shape']}"
        for part in ("value", "imag"):
            if part in want or part in got:
                np.testing.assert_allclose(got.get(part), want.get(part), rtol=rtol, atol=atol,
                                           err_msg=f"{path} ({part})")
    elif isinstance(want, dict) and "items" in want:
        assert isinstance(got, dict) and "items" in got, f"{path}: want a sequence, got {got}"
        assert got["seq"] == want["seq"], f"{path}: {got['seq']} != {want['seq']}"
        assert len(got["items"]) == len(want["items"]), f"{path}: length differs"
        for i, (g, w) in enumerate(zip(got["items"], want["items"])):
            assert_same(g, w, f"{path}[{i}]", rtol, atol)
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"
