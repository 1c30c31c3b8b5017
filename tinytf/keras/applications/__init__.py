"""keras.applications: the ImageNet model builders of Keras 3 (same layers, names and parameter counts), each
family's preprocess_input and decode_predictions; `weights="imagenet"` reads Keras' published .h5 files
through keras.utils.get_file's cache."""

from . import (
           densenet,
           imagenet_utils,
           inception_v3,
           mobilenet,
           mobilenet_v2,
           resnet,
           resnet50,
           resnet_v2,
           vgg16,
           vgg19,
           xception,
)
from .densenet import DenseNet121, DenseNet169, DenseNet201
from .efficientnet import (
    EfficientNetB0,
    EfficientNetB1,
    EfficientNetB2,
    EfficientNetB3,
    EfficientNetB4,
    EfficientNetB5,
    EfficientNetB6,
    EfficientNetB7,
)
from .inception_v3 import InceptionV3
from .mobilenet import MobileNet
from .mobilenet_v2 import MobileNetV2
from .mobilenet_v3 import MobileNetV3Large, MobileNetV3Small
from .resnet import ResNet50, ResNet50V2, ResNet101, ResNet101V2, ResNet152, ResNet152V2
from .vgg import VGG16, VGG19
from .xception import Xception

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "EfficientNetB0", "EfficientNetB1", "EfficientNetB2",
           "EfficientNetB3", "EfficientNetB4", "EfficientNetB5", "EfficientNetB6", "EfficientNetB7", "InceptionV3",
           "MobileNet", "MobileNetV2", "MobileNetV3Large", "MobileNetV3Small", "ResNet101", "ResNet101V2",
           "ResNet152", "ResNet152V2", "ResNet50", "ResNet50V2", "VGG16", "VGG19", "Xception", "densenet",
           "efficientnet", "imagenet_utils", "inception_v3", "mobilenet", "mobilenet_v2", "mobilenet_v3", "resnet",
           "resnet50", "resnet_v2", "vgg16", "vgg19", "xception"]

# ConvNeXt, EfficientNetV2, InceptionResNetV2 and NASNet (each family's module beside its builders)
from . import convnext  # noqa: E402
from .convnext import ConvNeXtBase, ConvNeXtLarge, ConvNeXtSmall, ConvNeXtTiny, ConvNeXtXLarge  # noqa: E402

__all__ += ["ConvNeXtBase", "ConvNeXtLarge", "ConvNeXtSmall", "ConvNeXtTiny", "ConvNeXtXLarge", "convnext"]
from . import efficientnet_v2  # noqa: E402
from .efficientnet_v2 import (  # noqa: E402
    EfficientNetV2B0,
    EfficientNetV2B1,
    EfficientNetV2B2,
    EfficientNetV2B3,
    EfficientNetV2L,
    EfficientNetV2M,
    EfficientNetV2S,
)

__all__ += ["EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2", "EfficientNetV2B3", "EfficientNetV2L",
            "EfficientNetV2M", "EfficientNetV2S", "efficientnet_v2"]
from . import inception_resnet_v2  # noqa: E402
from .inception_resnet_v2 import InceptionResNetV2  # noqa: E402

__all__ += ["InceptionResNetV2", "inception_resnet_v2"]
from . import nasnet  # noqa: E402
from .nasnet import NASNetLarge, NASNetMobile  # noqa: E402

__all__ += ["NASNetLarge", "NASNetMobile", "nasnet"]
