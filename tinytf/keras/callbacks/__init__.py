"""keras.callbacks: hooks into fit/evaluate/predict."""

from .backup_and_restore import BackupAndRestore
from .callback import Callback, CallbackList, LambdaCallback, TerminateOnNaN
from .history import History
from .model_checkpoint import ModelCheckpoint
from .monitors import CSVLogger, EarlyStopping, LearningRateScheduler, ReduceLROnPlateau
from .progbar import Progbar
from .progbar_logger import ProgbarLogger
from .remote_monitor import RemoteMonitor
from .swap_ema_weights import SwapEMAWeights
from .tensorboard import TensorBoard

__all__ = ["Callback", "CallbackList", "History", "LambdaCallback", "TerminateOnNaN", "CSVLogger", "EarlyStopping",
           "LearningRateScheduler", "ReduceLROnPlateau", "ProgbarLogger", "Progbar", "TensorBoard", "ModelCheckpoint",
           "BackupAndRestore"]
__all__ += ["RemoteMonitor", "SwapEMAWeights"]
