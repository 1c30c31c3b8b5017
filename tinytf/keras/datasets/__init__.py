"""keras.datasets: the small classic datasets, downloaded once into Keras' cache (~/.keras/datasets) from
the origins Keras uses and checked against Keras' hashes."""

from . import boston_housing, california_housing, cifar10, cifar100, fashion_mnist, imdb, mnist, reuters

__all__ = ["boston_housing", "california_housing", "cifar10", "cifar100", "fashion_mnist", "imdb", "mnist",
           "reuters"]
