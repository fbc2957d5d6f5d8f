"""Model zoo LeNet5 on MNIST with Model.train, callbacks, checkpoints and Accuracy."""
import os

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as C
import mindspore.dataset.vision as CV
from mindspore import nn
from mindspore.common.initializer import Normal
from mindspore.train import Model, LossMonitor, TimeMonitor, ModelCheckpoint, CheckpointConfig
from mindspore.nn.metrics import Accuracy

from mnist_files import write_mnist

ms.set_context(mode=ms.GRAPH_MODE)
write_mnist("MNIST_Data")


def create_dataset(data_path, batch_size=32):
    mnist_ds = ds.MnistDataset(data_path, shuffle=False)
    resize_op = CV.Resize((32, 32), interpolation=CV.Inter.LINEAR)
    rescale_nml_op = CV.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081)
    rescale_op = CV.Rescale(1.0 / 255.0, 0.0)
    hwc2chw_op = CV.HWC2CHW()
    type_cast_op = C.TypeCast(ms.int32)
    mnist_ds = mnist_ds.map(operations=type_cast_op, input_columns="label")
    mnist_ds = mnist_ds.map(operations=[resize_op, rescale_op, rescale_nml_op, hwc2chw_op],
                            input_columns="image")
    mnist_ds = mnist_ds.batch(batch_size, drop_remainder=True)
    return mnist_ds


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = LeNet5()
rng = np.random.default_rng(7)
for name, p in net.parameters_and_names():
    p.set_data(ms.Tensor(rng.uniform(-0.2, 0.2, p.shape).astype(np.float32)))
    print(name, p.shape, p.dtype)

net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
net_opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
config_ck = CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=3)
ckpoint = ModelCheckpoint(prefix="checkpoint_lenet", directory="ckpt", config=config_ck)
model = Model(net, net_loss, net_opt, metrics={"Accuracy": Accuracy()})

ds_train = create_dataset("MNIST_Data/train")
ds_eval = create_dataset("MNIST_Data/test")
print("steps per epoch:", ds_train.get_dataset_size())
model.train(2, ds_train, callbacks=[TimeMonitor(), ckpoint, LossMonitor(2)],
            dataset_sink_mode=False)
print(sorted(f for f in os.listdir("ckpt") if f.endswith(".ckpt")))
acc = model.eval(ds_eval, dataset_sink_mode=False)
print("{}".format(acc))

param_dict = ms.load_checkpoint("ckpt/checkpoint_lenet-2_8.ckpt")
print(sorted(param_dict.keys()))
fresh = LeNet5()
not_loaded, _ = ms.load_param_into_net(fresh, param_dict)
print("not loaded:", not_loaded)
print("eval after reload:", Model(fresh, net_loss, metrics={"acc"}).eval(ds_eval))
print("fc3.bias", np.round(fresh.fc3.bias.asnumpy(), 5))
