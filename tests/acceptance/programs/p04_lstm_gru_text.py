"""Sentiment-style text classifiers: Embedding + LSTM (bidirectional) and Embedding + GRU."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.PYNATIVE_MODE)
rng = np.random.default_rng(11)


class RNNClassifier(nn.Cell):
    def __init__(self, vocab_size, embed_size, hidden_size, num_classes, cell="lstm"):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_size, padding_idx=0)
        if cell == "lstm":
            self.rnn = nn.LSTM(embed_size, hidden_size, num_layers=1, batch_first=True,
                               bidirectional=True)
            out = 2 * hidden_size
        else:
            self.rnn = nn.GRU(embed_size, hidden_size, num_layers=2, batch_first=True)
            out = hidden_size
        self.fc = nn.Dense(out, num_classes)
        self.cell = cell

    def construct(self, inputs):
        embedded = self.embedding(inputs)
        output, _ = self.rnn(embedded)
        last = output[:, -1, :]
        return self.fc(last)


tokens = Tensor(rng.integers(1, 50, (6, 7)).astype(np.int32))
labels = Tensor(rng.integers(0, 2, 6).astype(np.int32))
for cell in ("lstm", "gru"):
    net = RNNClassifier(50, 8, 6, 2, cell)
    for name, p in net.parameters_and_names():
        p.set_data(Tensor(rng.uniform(-0.3, 0.3, p.shape).astype(np.float32)))
    print(cell, [(n, p.shape) for n, p in net.parameters_and_names()])
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    optimizer = nn.Adam(net.trainable_params(), learning_rate=0.01)

    def forward_fn(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    for step in range(3):
        loss, grads = grad_fn(tokens, labels)
        optimizer(grads)
        print(cell, "step", step, "loss", f"{loss.asnumpy():.6f}")
    logits = net(tokens)
    print(cell, "logits", np.round(logits.asnumpy(), 4).tolist())
    print(cell, "pred", ops.argmax(logits, dim=1).asnumpy().tolist())
