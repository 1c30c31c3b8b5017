"""tf.compat.v1.saved_model.constants: the SavedModel file layout's names (TF 2.21's values, those of
tinytf.saved_model.constants, plus the TF1 collection keys of the main op and the legacy init op)."""

from ...saved_model.constants import (
                                      ASSETS_DIRECTORY,
                                      ASSETS_KEY,
                                      DEBUG_DIRECTORY,
                                      DEBUG_INFO_FILENAME_PB,
                                      SAVED_MODEL_FILENAME_PB,
                                      SAVED_MODEL_FILENAME_PBTXT,
                                      SAVED_MODEL_SCHEMA_VERSION,
                                      VARIABLES_DIRECTORY,
                                      VARIABLES_FILENAME,
)

LEGACY_INIT_OP_KEY = "legacy_init_op"
MAIN_OP_KEY = "saved_model_main_op"

__all__ = ["ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB", "LEGACY_INIT_OP_KEY",
           "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB", "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION",
           "VARIABLES_DIRECTORY", "VARIABLES_FILENAME"]
