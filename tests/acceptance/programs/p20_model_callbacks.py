"""Model.train/eval/predict with metrics, custom callbacks, the callback's run context,
early stopping and a learning-rate schedule, on a small synthetic regression/classification."""
import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, Tensor
from mindspore.train import Model, Callback, LossMonitor, EarlyStopping
from mindspore.common.initializer import Normal

ms.set_seed(3)
rng = np.random.RandomState(0)
features = rng.randn(64, 5).astype(np.float32)
labels = (features @ np.array([1.0, -2.0, 0.5, 0.0, 1.5], np.float32) > 0).astype(np.int32)


def make(batch=16):
    return ds.NumpySlicesDataset({"x": features, "y": labels}, shuffle=False).batch(batch)


class StepRecorder(Callback):
    def __init__(self):
        super().__init__()
        self.losses = []

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.losses.append(float(cb.net_outputs.asnumpy()))
        if cb.cur_step_num % 4 == 0:
            print(f"epoch {cb.cur_epoch_num} step {cb.cur_step_num} loss {self.losses[-1]:.5f}")

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        print("epoch end", cb.cur_epoch_num, "batch_num", cb.batch_num, "epoch_num", cb.epoch_num)

    def on_train_end(self, run_context):
        print("train end after", len(self.losses), "steps")


net = nn.SequentialCell(nn.Dense(5, 8, weight_init=Normal(0.3)), nn.ReLU(), nn.Dense(8, 2, weight_init=Normal(0.3)))
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
lr = nn.piecewise_constant_lr([8, 16, 24], [0.1, 0.05, 0.01])
opt = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
model = Model(net, loss_fn=loss, optimizer=opt, metrics={"acc", "loss"})
rec = StepRecorder()
model.train(3, make(), callbacks=[rec], dataset_sink_mode=False)
res = model.eval(make(), dataset_sink_mode=False)
print("eval", {k: round(float(v), 5) for k, v in sorted(res.items())})
pred = model.predict(Tensor(features[:3]))
print("predict", pred.shape, np.round(pred.asnumpy(), 4))


class StopAt(Callback):
    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num >= 5:
            run_context.request_stop()


model2 = Model(nn.Dense(5, 2, weight_init=Normal(0.3)), loss_fn=loss,
               optimizer=nn.SGD(params=nn.Dense(5, 2).trainable_params(), learning_rate=0.1))
counter = StepRecorder()
model2.train(10, make(), callbacks=[StopAt(), counter], dataset_sink_mode=False)
print("stopped at", len(counter.losses))
