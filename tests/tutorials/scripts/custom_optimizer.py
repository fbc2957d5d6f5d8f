"""A user-written optimizer on experimental.optim.Optimizer (the example of MindSpore's
docstring: param_groups, group_start_id, add_param_group), in PYNATIVE_MODE, under @jit
and in GRAPH_MODE."""
import mindspore
import numpy as np
from mindspore import Parameter, Tensor, nn, ops
from mindspore.experimental import optim


class MySGD(optim.Optimizer):
    def __init__(self, params, lr):
        defaults = dict(lr=lr)
        super().__init__(params, defaults)

    def construct(self, gradients):
        for group_id, group in enumerate(self.param_groups):
            id = self.group_start_id[group_id]
            for i, param in enumerate(group["params"]):
                next_param = param + gradients[id + i] * group["lr"]
                ops.assign(param, next_param)


def run(mode, use_jit):
    mindspore.set_context(mode=mode)
    net = nn.Dense(8, 2, weight_init="ones", bias_init="zeros")
    data = Tensor(np.arange(160).reshape(20, 8).astype(np.float32) / 100)
    label = Tensor(np.ones((20, 2)).astype(np.float32))
    optimizer = MySGD(net.trainable_params(), 0.01)
    optimizer.add_param_group({"params": Parameter(Tensor([0.01, 0.02]), name="extra")})
    criterion = nn.L1Loss(reduction="mean")

    def forward_fn(data, label):
        logits = net(data)
        loss = criterion(logits, label)
        return loss, logits

    grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    if use_jit:
        train_step = mindspore.jit(train_step)
    for _ in range(3):
        print(train_step(data, label))
    print(net.weight.asnumpy()[0, :3], optimizer.parameters[-1].asnumpy())
    print(optimizer)


for mode, use_jit in ((mindspore.PYNATIVE_MODE, False), (mindspore.PYNATIVE_MODE, True),
                      (mindspore.GRAPH_MODE, False)):
    run(mode, use_jit)


def sgd_update(lr, w, g):
    return ops.assign(w, w - g * lr)


class HyperMapSGD(optim.Optimizer):
    """An update over all weights with self.hyper_map, as MindSpore's optimizers write it."""

    def __init__(self, params, lr):
        super().__init__(params, {"lr": lr})

    def construct(self, gradients):
        lr = self.param_groups[0]["lr"]
        return self.hyper_map(ops.partial(sgd_update, lr), self.parameters, gradients)


for mode in (mindspore.PYNATIVE_MODE, mindspore.GRAPH_MODE):
    mindspore.set_context(mode=mode)
    weights = [Parameter(Tensor(np.ones(3, np.float32)), name="a"),
               Parameter(Tensor(np.full(2, 2.0, np.float32)), name="b")]
    opt = HyperMapSGD(weights, 0.5)
    opt((Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.ones(2, np.float32))))
    print(weights[0].asnumpy(), weights[1].asnumpy())
