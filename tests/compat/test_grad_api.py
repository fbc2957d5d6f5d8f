"""vjp/jvp, nn.grad.Jvp/Vjp, return_ids/get_grad, has_aux and weight outputs give what
MindSpore 2.10 gives (fixtures/grad.json, recorded by fixtures/record.py), in both modes."""
import pytest
from recorded import MODES, check, load

import graphkiln as ms

CASES, RECORDED = load("grad")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("case", CASES.CASES, ids=lambda c: c.__name__)
def test_matches_mindspore(case, mode):
    check(case, RECORDED[case.__name__][mode], mode)


def test_get_grad_of_an_id_not_computed_raises_runtime_error():
    net = CASES._WeightNet.make(ms)
    x = CASES.vec(ms, 1, 2)
    res = ms.grad(net, 0, net.trainable_params(), return_ids=True)(x, x)
    with pytest.raises(RuntimeError, match="can not find the gradient for position 1"):
        ms.ops.get_grad(res, 1)
    with pytest.raises(TypeError, match="identifier"):
        ms.ops.get_grad(res, "w")
