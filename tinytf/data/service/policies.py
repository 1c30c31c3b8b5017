"""The tf.data service's configuration values: ShardingPolicy, the processing-mode strings, CrossTrainerCache,
the compression names, and the checks TF's `distribute` makes on its arguments (with TF's messages)."""

from __future__ import annotations

import enum

PARALLEL_EPOCHS = "parallel_epochs"
DISTRIBUTED_EPOCH = "distributed_epoch"
COMPRESSION_AUTO = "AUTO"
COMPRESSION_NONE = None
COMPRESSION_SNAPPY = "SNAPPY"
TARGET_WORKERS = ("AUTO", "ANY", "LOCAL")


class ShardingPolicy(enum.IntEnum):
    """How a job's data is split among the workers:

    OFF: every worker processes the whole dataset ("parallel_epochs").
    DYNAMIC: the source dataset is split, and the dispatcher hands each split (one source element) to the
      worker that asks first; each worker runs the rest of the pipeline on its splits ("distributed_epoch").
    FILE: worker i of n reads files i, i+n, ... of the file source (TF's error when there are no files).
    DATA: worker i of n keeps elements i, i+n, ... of the whole pipeline's output.
    FILE_OR_DATA: FILE when the pipeline reads files, else DATA.
    HINT: every `shard(SHARD_HINT, SHARD_HINT)` becomes `shard(n, i)`.

    The static policies (FILE, DATA, FILE_OR_DATA, HINT) need the dispatcher's `worker_addresses`: a worker's
    index is its place in that list."""

    OFF = 0
    DYNAMIC = 1
    FILE = 2
    DATA = 3
    FILE_OR_DATA = 4
    HINT = 5


STATIC = (ShardingPolicy.FILE, ShardingPolicy.DATA, ShardingPolicy.FILE_OR_DATA, ShardingPolicy.HINT)


class CrossTrainerCache:
    """Trainers that share a job (one `job_name`) and name different `trainer_id`s each read every element: the
    workers keep what they produced, and a trainer reads on from its own position in that cache."""

    def __init__(self, trainer_id):
        if not trainer_id:
            raise ValueError("tf.data service cross-trainer cache requires a non-empty trainer ID.")
        self.trainer_id = trainer_id


def sharding_policy(processing_mode) -> ShardingPolicy:
    if isinstance(processing_mode, ShardingPolicy):
        return processing_mode
    if processing_mode == PARALLEL_EPOCHS:
        return ShardingPolicy.OFF
    if processing_mode == DISTRIBUTED_EPOCH:
        return ShardingPolicy.DYNAMIC
    raise ValueError("tf.data service processing mode should be a `tf.data.experimental.service.ShardingPolicy`, "
                     f"`\"parallel_epochs\"`, or `\"distributed_epoch\"`. Got {processing_mode!r}.")


def check_job_name(job_name) -> None:
    if job_name is None:
        return
    if not isinstance(job_name, str):
        raise ValueError(f"`job_name` must be a string, but `job_name` was of type {type(job_name)}. "
                         f"job_name={job_name}")
    if not job_name:
        raise ValueError("`job_name` must not be empty")


def check_compression(compression) -> None:
    valid = [COMPRESSION_AUTO, COMPRESSION_NONE, COMPRESSION_SNAPPY]
    if compression not in valid:
        raise ValueError(f"Invalid `compression` argument: {compression}. Must be one of {valid}.")


def parse_service(service) -> tuple[str, str]:
    """"protocol://address" or "address" as (protocol, address)."""
    if isinstance(service, tuple):
        return service
    if not isinstance(service, str):
        raise ValueError(f"`service` must be a string, but `service` was of type {type(service)}. service={service}")
    if not service:
        raise ValueError("`service` must not be empty")
    parts = service.split("://")
    if len(parts) == 1:
        return "grpc", parts[0]
    if len(parts) == 2:
        return parts[0], parts[1]
    raise ValueError(f"Malformed `service` string has multiple '://': {service}.")
