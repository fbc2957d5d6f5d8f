"""A small ResNet (basic blocks with BatchNorm2d) trained with TrainOneStepCell, then eval."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class ResidualBlock(nn.Cell):
    def __init__(self, in_channel, out_channel, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channel, out_channel, 3, stride=stride, pad_mode='pad',
                               padding=1, has_bias=False)
        self.bn1 = nn.BatchNorm2d(out_channel)
        self.conv2 = nn.Conv2d(out_channel, out_channel, 3, pad_mode='same', has_bias=False)
        self.bn2 = nn.BatchNorm2d(out_channel, momentum=0.9)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([
                nn.Conv2d(in_channel, out_channel, 1, stride=stride, has_bias=False),
                nn.BatchNorm2d(out_channel)])

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class TinyResNet(nn.Cell):
    def __init__(self, num_classes=4):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, pad_mode='same', has_bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(kernel_size=2, stride=2, pad_mode="same")
        self.layer1 = ResidualBlock(8, 8)
        self.layer2 = ResidualBlock(8, 16, stride=2)
        self.mean = ops.ReduceMean(keep_dims=True)
        self.flatten = nn.Flatten()
        self.end_point = nn.Dense(16, num_classes)

    def construct(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        x = self.mean(x, (2, 3))
        return self.end_point(self.flatten(x))


net = TinyResNet()
rng = np.random.default_rng(3)
for p in net.trainable_params():
    if p.name.endswith("gamma") or p.name.endswith("beta"):
        continue
    p.set_data(Tensor(rng.normal(0, 0.3, p.shape).astype(np.float32)))
x = Tensor(rng.normal(size=(8, 3, 16, 16)).astype(np.float32))
y = Tensor(rng.integers(0, 4, 8).astype(np.int32))

loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9, weight_decay=1e-4)
train_net = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
train_net.set_train()
for step in range(4):
    print("step", step, "loss", train_net(x, y).asnumpy())
print("moving_mean", np.round(net.bn1.moving_mean.asnumpy(), 5))
print("moving_variance", np.round(net.layer2.bn2.moving_variance.asnumpy()[:4], 5))
net.set_train(False)
out = net(x)
print("eval logits", np.round(out.asnumpy()[:2], 4))
print("eval pred", out.argmax(axis=1))
print([p.name for p in net.get_parameters()][:8])
print(len(net.trainable_params()), len(list(net.get_parameters())))
print(type(net.get_parameters()).__name__)
