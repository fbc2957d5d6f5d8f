"""``train.train_thor.ConvertModelUtils`` leaves a first-order Model as it is (as MindSpore
does for every optimizer but THOR), and ``nn.thor`` says clearly that THOR is not available."""
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.train.train_thor import ConvertModelUtils


def test_convert_to_thor_model_keeps_a_first_order_model():
    net = nn.Dense(2, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = ms.Model(net, nn.MSELoss(), opt)
    assert ConvertModelUtils.convert_to_thor_model(model, net, nn.MSELoss(), opt) is model


def test_thor_optimizer_is_a_clear_error():
    with pytest.raises(RuntimeError, match="not available in graphkiln"):
        nn.thor(nn.Dense(2, 2), 0.1, 0.1, 0.9)
