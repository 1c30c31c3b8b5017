"""tf.compat.v1.saved_model as TF 2.21 lays it out: the submodules builder, loader, main_op, signature_def_utils,
utils, constants, signature_constants, tag_constants and experimental (TF2's save, TrackableResource and
VariablePolicy), and their names again at the top level (tf.compat.v1.saved_model.SERVING,
.build_signature_def, .main_op_with_restore, ...). `main_op` at the top level is the submodule, as in TF."""

from __future__ import annotations

import sys
import types

from . import (
    saved_model_builder,
    saved_model_constants,
    saved_model_loader,
    saved_model_main_op,
    saved_model_method_name_updater,
    saved_model_signature_constants,
    saved_model_signature_def_utils,
    saved_model_tag_constants,
    saved_model_utils,
    saved_model_v1,
)


def _submodule(parent: types.ModuleType, name: str, source, names) -> types.ModuleType:
    """A module `parent.name` holding `names` of `source` (importable: registered in sys.modules)."""
    module = types.ModuleType(f"{parent.__name__}.{name}", (source.__doc__ or "").strip())
    for attr in names:
        setattr(module, attr, getattr(source, attr))
    module.__all__ = list(names)
    sys.modules[module.__name__] = module
    setattr(parent, name, module)
    return module


def install(saved_model: types.ModuleType) -> None:
    """Fill the tf.compat.v1.saved_model module (which already holds TF2's Asset, SaveOptions, save, load_v2,
    contains_saved_model)."""
    from ...saved_model.options import VariablePolicy
    from ...saved_model.save import save
    from ...saved_model.trackable_resource import TrackableResource

    for source in (saved_model_constants, saved_model_signature_constants, saved_model_tag_constants,
                   saved_model_signature_def_utils, saved_model_utils, saved_model_v1):
        for attr in source.__all__:
            setattr(saved_model, attr, getattr(source, attr))
    saved_model.main_op_with_restore = saved_model_main_op.main_op_with_restore
    saved_model.maybe_saved_model_directory = saved_model_loader.maybe_saved_model_directory
    for name, source in (("constants", saved_model_constants), ("signature_constants", saved_model_signature_constants),
                         ("tag_constants", saved_model_tag_constants), ("utils", saved_model_utils),
                         ("builder", saved_model_builder), ("loader", saved_model_loader),
                         ("main_op", saved_model_main_op)):
        _submodule(saved_model, name, source, source.__all__)
    signature_def_utils = _submodule(saved_model, "signature_def_utils", saved_model_signature_def_utils,
                                     saved_model_signature_def_utils.__all__)
    signature_def_utils.MethodNameUpdater = saved_model_method_name_updater.MethodNameUpdater
    signature_def_utils.__all__.append("MethodNameUpdater")
    experimental = types.ModuleType(f"{saved_model.__name__}.experimental",
                                    "TF2's tf.saved_model.save, TrackableResource, VariablePolicy (same objects)")
    experimental.save, experimental.TrackableResource, experimental.VariablePolicy = (
        save, TrackableResource, VariablePolicy)
    experimental.__all__ = ["save", "TrackableResource", "VariablePolicy"]
    sys.modules[experimental.__name__] = experimental
    saved_model.experimental = experimental
