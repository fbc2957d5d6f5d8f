"""``mindspore.nn.probability.bnn_layers``: Bayesian layers (weights drawn from trainable
Normal posteriors) and the loss cell adding their KL terms."""
from .bnn_cell_wrapper import WithBNNLossCell
from .conv_variational import ConvReparam
from .dense_variational import DenseLocalReparam, DenseReparam
from .layer_distribution import NormalPosterior, NormalPrior

__all__ = ["ConvReparam", "DenseLocalReparam", "DenseReparam", "NormalPosterior",
           "NormalPrior", "WithBNNLossCell"]
