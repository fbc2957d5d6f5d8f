"""A small GAN in GRAPH_MODE: two networks, two optimizers, stop_gradient, BCEWithLogits."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.common.initializer import Normal

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(1)


class Generator(nn.Cell):
    def __init__(self, latent=8, out=4):
        super().__init__()
        self.net = nn.SequentialCell(nn.Dense(latent, 16, weight_init=Normal(0.1)), nn.LeakyReLU(0.2),
                                     nn.Dense(16, out, weight_init=Normal(0.1)), nn.Tanh())

    def construct(self, z):
        return self.net(z)


class Discriminator(nn.Cell):
    def __init__(self, inp=4):
        super().__init__()
        self.net = nn.SequentialCell(nn.Dense(inp, 16, weight_init=Normal(0.1)), nn.LeakyReLU(0.2),
                                     nn.Dense(16, 1, weight_init=Normal(0.1)))

    def construct(self, x):
        return self.net(x)


gen, disc = Generator(), Discriminator()
gen.update_parameters_name('gen.')
disc.update_parameters_name('disc.')
loss_fn = nn.BCEWithLogitsLoss()
opt_g = nn.Adam(gen.trainable_params(), learning_rate=2e-3, beta1=0.5)
opt_d = nn.Adam(disc.trainable_params(), learning_rate=2e-3, beta1=0.5)


def d_loss(real, z):
    fake = ops.stop_gradient(gen(z))
    r, f = disc(real), disc(fake)
    return loss_fn(r, ops.ones_like(r)) + loss_fn(f, ops.zeros_like(f))


def g_loss(z):
    f = disc(gen(z))
    return loss_fn(f, ops.ones_like(f))


d_grad = ms.value_and_grad(d_loss, None, opt_d.parameters)
g_grad = ms.value_and_grad(g_loss, None, opt_g.parameters)


@ms.jit
def train_d(real, z):
    ld, gd = d_grad(real, z)
    opt_d(gd)
    return ld


@ms.jit
def train_g(z):
    lg, gg = g_grad(z)
    opt_g(gg)
    return lg


def train_step(real, z):
    return train_d(real, z), train_g(z)


rng = np.random.RandomState(0)
for step in range(30):
    real = Tensor(rng.randn(16, 4).astype(np.float32) * 0.5 + 1.0)
    z = Tensor(rng.randn(16, 8).astype(np.float32))
    ld, lg = train_step(real, z)
    if step % 5 == 0:
        print(f"step {step}: d_loss {ld.asnumpy():.5f} g_loss {lg.asnumpy():.5f}")
sample = gen(Tensor(np.ones((2, 8), np.float32)))
print("sample", sample.shape, sample.dtype)
print(np.round(sample.asnumpy(), 4))
