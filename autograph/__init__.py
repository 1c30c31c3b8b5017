"""tinytf.autograph (`tf.autograph`): converts Python control flow on tensors into graph control flow.

`@tf.function` traces `convert_for_function(f)`: f's source rewritten so that `if`/`while`/`for`, `and`/
`or`/`not`, conditional expressions, `assert`, break/continue/return and calls choose at run time between
plain Python and cond/while_loop nodes."""

from . import experimental
from .api import AutoGraphWarning, convert_for_function, converted_call, do_not_convert, to_code, to_graph
from .errors import AutoGraphError, ConversionError, StagingError
from .verbosity import set_verbosity, trace

__all__ = ["convert_for_function", "to_code", "to_graph", "do_not_convert", "experimental", "converted_call",
           "AutoGraphWarning", "AutoGraphError", "ConversionError", "StagingError", "set_verbosity", "trace"]
