"""A small ResNet on CIFAR-like images: seeded default initialisation, vision augmentation
with a dataset seed, Momentum with weight decay, Model.train/eval."""
import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.vision as vision
import mindspore.dataset.transforms as transforms
from mindspore import nn, ops
from mindspore.train import Model, LossMonitor

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(2024)

rng = np.random.RandomState(1)
images = rng.randint(0, 256, (48, 36, 36, 3)).astype(np.uint8)
labels = rng.randint(0, 4, 48).astype(np.int32)


def dataset(train):
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=train)
    ops_ = [vision.RandomCrop(32), vision.RandomHorizontalFlip()] if train else [vision.CenterCrop(32)]
    ops_ += [vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize([0.5] * 3, [0.25] * 3), vision.HWC2CHW()]
    data = data.map(ops_, input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(8, drop_remainder=True)


class Residual(nn.Cell):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, pad_mode="pad", padding=1)
        self.bn1 = nn.BatchNorm2d(ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, pad_mode="same")
        self.bn2 = nn.BatchNorm2d(ch)
        self.relu = nn.ReLU()

    def construct(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        return self.relu(self.bn2(self.conv2(y)) + x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.stem = nn.SequentialCell(nn.Conv2d(3, 8, 3, stride=2), nn.BatchNorm2d(8), nn.ReLU())
        self.block = Residual(8)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(8, 4)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.block(self.stem(x)))))


net = Net()
print("params", sum(p.size for p in net.trainable_params()))
print("first conv", np.round(net.stem[0].weight.asnumpy().ravel()[:4], 5))
loss = nn.CrossEntropyLoss()
opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9, weight_decay=1e-4)
model = Model(net, loss, opt, metrics={"accuracy"})
model.train(2, dataset(True), callbacks=[LossMonitor(3)], dataset_sink_mode=False)
print("eval", model.eval(dataset(False), dataset_sink_mode=False))
logits = net(ms.Tensor(np.zeros((1, 3, 32, 32), np.float32)))
print("logits", np.round(logits.asnumpy(), 4))
