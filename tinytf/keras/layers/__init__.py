"""keras.layers: the Layer base class and the built-in layers."""

from ..models.input_layer import Input, InputLayer
from .activation_layers import ELU, LeakyReLU, PReLU, ReLU, Rescaling, Softmax
from .adaptive_pooling import (
    AdaptiveAveragePooling1D,
    AdaptiveAveragePooling2D,
    AdaptiveAveragePooling3D,
    AdaptiveMaxPooling1D,
    AdaptiveMaxPooling2D,
    AdaptiveMaxPooling3D,
)
from .alpha_dropout import AlphaDropout
from .attention import AdditiveAttention, Attention
from .conv import (
                   Conv1D,
                   Conv2D,
                   Conv2DTranspose,
                   Convolution1D,
                   Convolution2D,
                   Convolution2DTranspose,
                   DepthwiseConv2D,
                   SeparableConv2D,
)
from .core import Activation, Dense, Dropout, Lambda
from .dot import Dot, dot
from .einsum_dense import EinsumDense
from .embedding import Embedding, Masking, TimeDistributed
from .group_normalization import GroupNormalization
from .group_query_attention import GroupQueryAttention
from .input_spec import InputSpec
from .layer import Layer
from .merging import (
                   Add,
                   Average,
                   Concatenate,
                   Maximum,
                   Merge,
                   Minimum,
                   Multiply,
                   Subtract,
                   add,
                   average,
                   concatenate,
                   maximum,
                   minimum,
                   multiply,
                   subtract,
)
from .multi_head_attention import MultiHeadAttention
from .normalization import BatchNormalization, LayerNormalization, Normalization
from .pooling import (
                   AveragePooling1D,
                   AveragePooling2D,
                   Cropping2D,
                   GlobalAveragePooling1D,
                   GlobalAveragePooling2D,
                   GlobalMaxPooling1D,
                   GlobalMaxPooling2D,
                   MaxPooling1D,
                   MaxPooling2D,
                   UpSampling2D,
                   ZeroPadding2D,
)
from .recurrent import (
                   GRU,
                   LSTM,
                   RNN,
                   Bidirectional,
                   GRUCell,
                   LSTMCell,
                   SimpleRNN,
                   SimpleRNNCell,
                   StackedRNNCells,
)
from .regularization import (
                   ActivityRegularization,
                   GaussianDropout,
                   GaussianNoise,
                   Identity,
                   SpatialDropout1D,
                   SpatialDropout2D,
                   UnitNormalization,
)
from .reshaping import Flatten, Permute, RepeatVector, Reshape
from .rms_normalization import RMSNormalization
from .spectral_normalization import SpectralNormalization

# isort: split
# Image preprocessing and augmentation layers (keras.layers.Resizing, RandomFlip, ...); exported at the end.
from .preprocessing.image_affine import RandomRotation, RandomTranslation, RandomZoom
from .preprocessing.image_random_color import (
    RandomBrightness,
    RandomColorJitter,
    RandomContrast,
    RandomGrayscale,
    RandomHue,
    RandomSaturation,
)
from .preprocessing.image_random_flip_crop import RandomCrop, RandomFlip
from .preprocessing.image_resizing import CenterCrop, Resizing

# isort: split
# 1-D and 3-D convolution, pooling, padding and cropping layers; exported at the end.
from .conv1d_variants import (
    Conv1DTranspose,
    Convolution1DTranspose,
    DepthwiseConv1D,
    SeparableConv1D,
    SeparableConvolution1D,
)
from .conv3d import Conv3D, Conv3DTranspose, Convolution3D, Convolution3DTranspose
from .padding_layers import (
    Cropping1D,
    Cropping3D,
    SpatialDropout3D,
    UpSampling1D,
    UpSampling3D,
    ZeroPadding1D,
    ZeroPadding3D,
)
from .pooling3d import (
    AveragePooling3D,
    AvgPool3D,
    GlobalAveragePooling3D,
    GlobalAvgPool3D,
    GlobalMaxPool3D,
    GlobalMaxPooling3D,
    MaxPool3D,
    MaxPooling3D,
)

SeparableConvolution2D = SeparableConv2D

MaxPool1D, MaxPool2D, AvgPool1D, AvgPool2D = MaxPooling1D, MaxPooling2D, AveragePooling1D, AveragePooling2D
GlobalAvgPool1D, GlobalAvgPool2D = GlobalAveragePooling1D, GlobalAveragePooling2D
GlobalMaxPool1D, GlobalMaxPool2D = GlobalMaxPooling1D, GlobalMaxPooling2D

__all__ = ["Layer", "InputSpec", "Input", "InputLayer", "Dense", "Activation", "Dropout", "Lambda", "Flatten",
           "Reshape", "Permute", "RepeatVector", "Concatenate", "Add", "Subtract", "Multiply", "Average", "Maximum",
           "Minimum", "Merge", "ReLU", "LeakyReLU", "PReLU", "ELU", "Softmax", "Rescaling", "add", "subtract",
           "multiply", "average", "maximum", "minimum", "concatenate", "Conv1D", "Conv2D", "Conv2DTranspose",
           "Convolution1D", "Convolution2D", "Convolution2DTranspose",
           "DepthwiseConv2D", "SeparableConv2D", "MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D",
           "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D", "GlobalMaxPooling2D",
           "UpSampling2D", "ZeroPadding2D", "Cropping2D", "BatchNormalization", "LayerNormalization",
           "Normalization", "Embedding", "Masking", "TimeDistributed", "RNN", "SimpleRNN", "LSTM", "GRU",
           "SimpleRNNCell", "LSTMCell", "GRUCell", "Bidirectional", "StackedRNNCells", "EinsumDense",
           "MultiHeadAttention", "GaussianNoise", "GaussianDropout",
           "SpatialDropout1D", "SpatialDropout2D", "ActivityRegularization", "Identity", "UnitNormalization"]

# keras.layers.ReversibleEmbedding (helper savetab)
from .reversible_embedding import ReversibleEmbedding  # noqa: E402

__all__ += ["ReversibleEmbedding"]

# the text and category preprocessing layers (tinytf/keras/layers/preprocessing/)
from .preprocessing.category_encoding import CategoryEncoding  # noqa: E402
from .preprocessing.discretization import Discretization  # noqa: E402
from .preprocessing.hashed_crossing import HashedCrossing  # noqa: E402
from .preprocessing.hashing import Hashing  # noqa: E402
from .preprocessing.integer_lookup import IntegerLookup  # noqa: E402
from .preprocessing.string_lookup import StringLookup  # noqa: E402
from .preprocessing.text_vectorization import TextVectorization  # noqa: E402

__all__ += ["CategoryEncoding", "Discretization", "HashedCrossing", "Hashing", "IntegerLookup", "StringLookup",
            "TextVectorization"]

__all__ += ["AlphaDropout", "Attention", "AdditiveAttention", "Dot", "dot", "GroupNormalization", "RMSNormalization",
            "SpectralNormalization", "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
            "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D", "GroupQueryAttention"]
__all__ += ["Resizing", "CenterCrop", "RandomCrop", "RandomFlip", "RandomRotation", "RandomZoom",  # image layers
            "RandomTranslation", "RandomContrast", "RandomBrightness", "RandomGrayscale", "RandomHue",
            "RandomSaturation", "RandomColorJitter"]
__all__ += ["Conv1DTranspose", "Convolution1DTranspose", "DepthwiseConv1D", "SeparableConv1D",  # 1-D and 3-D layers
            "SeparableConvolution1D", "SeparableConvolution2D", "Conv3D", "Conv3DTranspose", "Convolution3D",
            "Convolution3DTranspose", "Cropping1D", "Cropping3D", "SpatialDropout3D", "UpSampling1D", "UpSampling3D",
            "ZeroPadding1D", "ZeroPadding3D", "AveragePooling3D", "AvgPool3D", "GlobalAveragePooling3D",
            "GlobalAvgPool3D", "GlobalMaxPool3D", "GlobalMaxPooling3D", "MaxPool3D", "MaxPooling3D"]

# the audio layers (tinytf/keras/layers/audio/)
from .audio import MelSpectrogram, STFTSpectrogram  # noqa: E402

__all__ += ["MelSpectrogram", "STFTSpectrogram"]

# ConvLSTM (mixedprec's block)
from .conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D  # noqa: E402

__all__ += ["ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]

# Keras 3's later image augmentation layers (augment's block; tinytf/keras/layers/preprocessing/image_*.py)
from .preprocessing.image_color_ops import (  # noqa: E402
    AutoContrast,
    Equalization,
    MaxNumBoundingBoxes,
    RandomColorDegeneration,
    RandomGaussianBlur,
    RandomInvert,
    RandomPosterization,
    RandomSharpness,
    Solarization,
)

__all__ += ["AutoContrast", "Equalization", "MaxNumBoundingBoxes", "RandomColorDegeneration", "RandomGaussianBlur",
            "RandomInvert", "RandomPosterization", "RandomSharpness", "Solarization"]
from .preprocessing.image_composite import AugMix, Pipeline, RandAugment  # noqa: E402
from .preprocessing.image_geometric_more import (  # noqa: E402
    RandomErasing,
    RandomHeight,
    RandomPerspective,
    RandomShear,
    RandomWidth,
    ThresholdedReLU,
)
from .preprocessing.image_mixing import CutMix, MixUp  # noqa: E402

__all__ += ["AugMix", "Pipeline", "RandAugment", "RandomErasing", "RandomHeight", "RandomPerspective", "RandomShear",
            "RandomWidth", "ThresholdedReLU", "CutMix", "MixUp"]
from .preprocessing.image_elastic import RandomElasticTransform  # noqa: E402

__all__ += ["RandomElasticTransform"]
from .preprocessing.image_clahe import ContrastLimitedAdaptiveHistogramEqualization  # noqa: E402

__all__ += ["ContrastLimitedAdaptiveHistogramEqualization"]

# Keras 3's Wrapper base and the layer (de)serializers (wrapper.py)
from .wrapper import Wrapper, deserialize, serialize  # noqa: E402

__all__ += ["Wrapper", "deserialize", "serialize"]

# a SavedModel's endpoint as a layer (tfsm_layer.py)
from .tfsm_layer import TFSMLayer  # noqa: E402

__all__ += ["TFSMLayer"]
