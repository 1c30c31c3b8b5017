"""tf.debugging: run-time assertions and numeric checks."""

from tinytf.assertions import (  # noqa: F401
    assert_all_finite,
    assert_equal,
    assert_greater,
    assert_greater_equal,
    assert_integer,
    assert_less,
    assert_less_equal,
    assert_near,
    assert_negative,
    assert_non_negative,
    assert_non_positive,
    assert_none_equal,
    assert_positive,
    assert_proper_iterable,
    assert_rank,
    assert_rank_at_least,
    assert_rank_in,
    assert_same_float_dtype,
    assert_scalar,
    assert_shapes,
    assert_type,
    is_numeric_tensor,
)
from tinytf.check_numerics_mode import disable_check_numerics, enable_check_numerics  # noqa: F401
from tinytf.device_placement_log import get_log_device_placement, set_log_device_placement  # noqa: F401,E402
from tinytf.runtime.ops.check_numerics import check_numerics  # noqa: F401
from tinytf.runtime.ops.debugging import Assert  # noqa: F401
from tinytf.traceback_filtering import (  # noqa: F401,E402
    disable_traceback_filtering,
    enable_traceback_filtering,
    is_traceback_filtering_enabled,
)
