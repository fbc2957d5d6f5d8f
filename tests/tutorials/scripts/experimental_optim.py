"""Tutorial-style training with mindspore.experimental.optim: AdamW with a warmup + cosine
schedule (SequentialLR), value_and_grad(has_aux=True) over optimizer.parameters, gradient
clipping; then SGD with parameter groups and ReduceLROnPlateau on a validation loss. Each
runs in PYNATIVE_MODE, with the train step under @ms.jit, and in GRAPH_MODE."""
import mindspore as ms
import numpy as np
from mindspore import nn, ops
from mindspore.experimental import optim
from mindspore.experimental.optim.lr_scheduler import (
    CosineAnnealingLR,
    LinearLR,
    ReduceLROnPlateau,
    SequentialLR,
)

rng = np.random.default_rng(0)
X = rng.standard_normal((32, 6)).astype(np.float32)
Y = (X @ rng.standard_normal((6, 3))).argmax(1).astype(np.int32)
VX, VY = ms.Tensor(X[:8] * 0.5), ms.Tensor(np.roll(Y[:8], 1))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 16)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(16, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def build():
    net = Net()
    init = np.random.default_rng(1)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((init.standard_normal(p.shape) * 0.3).astype(np.float32)))
    return net


def trainer(net, optimizer):
    loss_fn = nn.CrossEntropyLoss()

    def forward_fn(x, y):
        logits = net(x)
        return loss_fn(logits, y), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(x, y):
        (loss, logits), grads = grad_fn(x, y)
        grads = ops.clip_by_global_norm(grads, 1.0)
        optimizer(grads)
        return loss, logits

    return train_step, forward_fn


def epoch(train_step):
    total, correct = 0.0, 0
    for i in range(0, 32, 8):
        loss, logits = train_step(ms.Tensor(X[i:i + 8]), ms.Tensor(Y[i:i + 8]))
        total += float(loss.asnumpy())
        correct += int((logits.asnumpy().argmax(1) == Y[i:i + 8]).sum())
    return total / 4, correct


def adamw_cosine(label, use_jit):
    net = build()
    optimizer = optim.AdamW(net.trainable_params(), lr=1e-2, weight_decay=0.01)
    warmup = LinearLR(optimizer, start_factor=0.2, total_iters=2)
    cosine = CosineAnnealingLR(optimizer, T_max=5)
    scheduler = SequentialLR(optimizer, schedulers=[warmup, cosine], milestones=[2])
    train_step, _ = trainer(net, optimizer)
    if use_jit:
        train_step = ms.jit(train_step)
    for e in range(6):
        loss, correct = epoch(train_step)
        scheduler.step()
        lr = float(scheduler.get_last_lr()[0].asnumpy())
        print(f"{label} adamw epoch {e}: loss {loss:.4f} correct {correct} lr {lr:.6f}")


def sgd_plateau(label, use_jit):
    net = build()
    groups = [{"params": net.fc1.trainable_params(), "lr": 0.2},
              {"params": net.fc2.trainable_params()}]
    optimizer = optim.SGD(groups, lr=0.1, momentum=0.9, nesterov=True)
    scheduler = ReduceLROnPlateau(optimizer, factor=0.5, patience=0, threshold=0.05)
    train_step, forward_fn = trainer(net, optimizer)
    if use_jit:
        train_step = ms.jit(train_step)
    for e in range(5):
        loss, _ = epoch(train_step)
        val = float(forward_fn(VX, VY)[0].asnumpy())
        scheduler.step(val)
        lrs = " ".join(f"{float(g['lr'].asnumpy()):.5f}" for g in optimizer.param_groups)
        print(f"{label} sgd epoch {e}: loss {loss:.4f} val {val:.4f} lrs {lrs}")


for label, mode, use_jit in (("pynative", ms.PYNATIVE_MODE, False),
                             ("jit", ms.PYNATIVE_MODE, True),
                             ("graph", ms.GRAPH_MODE, False)):
    ms.set_context(mode=mode)
    adamw_cosine(label, use_jit)
    sgd_plateau(label, use_jit)

net = build()
optimizer = optim.Adam([{"params": net.fc1.trainable_params(), "lr": 0.05},
                        {"params": net.fc2.trainable_params(), "weight_decay": 0.1}], lr=0.01)
scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=2)
print(optimizer)
print(optimizer.param_groups[0]["lr"], scheduler.last_epoch, scheduler.get_last_lr())
