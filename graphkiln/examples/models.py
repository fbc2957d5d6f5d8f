"""Small training models written against the MindSpore API. Each builder takes the
framework module (``graphkiln`` or ``mindspore``) to build with, so the same code builds the
model on graphkiln and on real MindSpore (``bench/train_step.py`` loads this file by path in
MindSpore's Python; nothing here imports graphkiln)."""


def lenet5(ms, num_class: int = 10, num_channel: int = 1):
    """LeNet-5 as in MindSpore's model zoo (32x32 inputs)."""
    nn = ms.nn
    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    return LeNet5()


def mlp(ms, sizes=(784, 256, 10)):
    """Dense-ReLU-Dense."""
    nn = ms.nn
    return nn.SequentialCell([nn.Dense(sizes[0], sizes[1]), nn.ReLU(),
                              nn.Dense(sizes[1], sizes[2])])


def resnet_block(ms, channels: int = 64, num_class: int = 10):
    """A ResNet basic block (two 3x3 conv + BatchNorm, identity shortcut), global average
    pooling and a Dense classifier."""
    nn, ops = ms.nn, ms.ops
    class BasicBlockNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="pad", padding=1)
            self.bn1 = nn.BatchNorm2d(channels)
            self.conv2 = nn.Conv2d(channels, channels, 3, pad_mode="pad", padding=1)
            self.bn2 = nn.BatchNorm2d(channels)
            self.relu = nn.ReLU()
            self.fc = nn.Dense(channels, num_class)

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            out = self.relu(out + x)
            return self.fc(ops.mean(out, (2, 3)))

    return BasicBlockNet()


def gpt_block(ms, vocab: int = 1000, d: int = 128, heads: int = 4, seq: int = 64,
              hidden: int = 512):
    """Token and position embeddings, one pre-LayerNorm causal self-attention block with a
    GELU MLP, a final LayerNorm and the vocabulary projection (logits [B*S, vocab])."""
    import numpy as np  # only for constants

    nn, ops = ms.nn, ms.ops
    scale = float(1.0 / np.sqrt(d // heads))

    class GPTBlock(nn.Cell):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, d)
            self.pos = nn.Embedding(seq, d)
            self.ln1 = nn.LayerNorm((d,))
            self.qkv = nn.Dense(d, 3 * d)
            self.proj = nn.Dense(d, d)
            self.ln2 = nn.LayerNorm((d,))
            self.fc1 = nn.Dense(d, hidden)
            self.gelu = nn.GELU()
            self.fc2 = nn.Dense(hidden, d)
            self.ln_f = nn.LayerNorm((d,))
            self.head = nn.Dense(d, vocab)
            self.positions = ms.Tensor(np.arange(seq, dtype=np.int32).reshape(1, seq))
            self.mask_add = ms.Tensor(np.triu(np.full((seq, seq), -1e9, np.float32), 1))
            self.scores = ops.BatchMatMul(transpose_b=True)
            self.mix = ops.BatchMatMul()

        def construct(self, ids):
            b = ids.shape[0]
            x = self.tok(ids) + self.pos(self.positions)
            h = self.ln1(x)
            qkv = ops.reshape(self.qkv(h), (b, seq, 3, heads, d // heads))
            qkv = ops.transpose(qkv, (2, 0, 3, 1, 4))
            q, k, v = qkv[0], qkv[1], qkv[2]
            att = self.scores(q, k) * scale + self.mask_add
            att = ops.softmax(att, -1)
            y = ops.transpose(self.mix(att, v), (0, 2, 1, 3))
            x = x + self.proj(ops.reshape(y, (b, seq, d)))
            x = x + self.fc2(self.gelu(self.fc1(self.ln2(x))))
            return ops.reshape(self.head(self.ln_f(x)), (b * seq, vocab))

    return GPTBlock()
