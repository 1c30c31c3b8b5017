"""Export rules for tf.signal's Fourier transforms (runtime/ops/fft.py), tf.audio's WAV codec and the CTC greedy
decoder: each tinytf op is the TF op of the same name (FFT, IFFT2D, RFFT, IRFFT3D, DecodeWav, CTCGreedyDecoder,
...); the real transforms take fft_length as an int32 input, as TF's do. rules_more.py merges RULES, TF_NAMES and
UNEXPORTED into its tables; this module imports neither rules module."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes

from . import protos as p

_COMPLEX = {"fft": "FFT", "ifft": "IFFT", "fft2d": "FFT2D", "ifft2d": "IFFT2D", "fft3d": "FFT3D", "ifft3d": "IFFT3D"}
_REAL = {"rfft": "RFFT", "irfft": "IRFFT", "rfft2d": "RFFT2D", "irfft2d": "IRFFT2D", "rfft3d": "RFFT3D",
         "irfft3d": "IRFFT3D"}


def _complex(tf_op):
    def rule(n, const):
        return tf_op, list(n.refs), {"Tcomplex": p.attr_type(n.inputs[0].dtype)}

    return rule


def _real(tf_op):
    def rule(n, const):
        # the input already has fft_length's sizes (the wrappers crop and pad), so TF's op neither crops nor pads
        lengths = const("fft_length", np.asarray(n.attrs["fft_length"], np.int32), dtypes.int32)
        real, complex_ = (n.outputs[0].dtype, n.inputs[0].dtype) if tf_op.startswith("I") else \
            (n.inputs[0].dtype, n.outputs[0].dtype)
        return tf_op, [n.refs[0], lengths], {"Treal": p.attr_type(real), "Tcomplex": p.attr_type(complex_)}

    return rule


def _decode_wav(n, const):
    return "DecodeWav", list(n.refs), {"desired_channels": p.attr(int(n.attrs["desired_channels"])),
                                       "desired_samples": p.attr(int(n.attrs["desired_samples"]))}


def _encode_wav(n, const):
    return "EncodeWav", list(n.refs), {}


def _ctc_greedy_decoder(n, const):
    return "CTCGreedyDecoder", list(n.refs), {"T": p.attr_type(n.inputs[0].dtype),
                                              "merge_repeated": p.attr(bool(n.attrs["merge_repeated"])),
                                              "blank_index": p.attr(int(n.attrs["blank"]))}


RULES = {"ctc_greedy_decoder": _ctc_greedy_decoder, "decode_wav": _decode_wav, "encode_wav": _encode_wav,
         **{op: _complex(tf_op) for op, tf_op in _COMPLEX.items()},
         **{op: _real(tf_op) for op, tf_op in _REAL.items()}}
TF_NAMES = {**_COMPLEX, **_REAL, "decode_wav": "DecodeWav",
            "encode_wav": "EncodeWav", "ctc_greedy_decoder": "CTCGreedyDecoder"}

_NO_CPU_KERNEL = ("TF 2.21's {} has no CPU kernel (its wrapper fails with NotFoundError on CPU), so no exported "
                  "graph could be checked by running it; not written")
UNEXPORTED = {op: _NO_CPU_KERNEL.format(op.upper()) for op in ("fftnd", "ifftnd", "rfftnd", "irfftnd")}
UNEXPORTED.update({
    "ctc_loss": "tinytf's op takes dense padded labels with either blank convention; TF's CTCLoss takes a sparse "
                "tensor's indices and values with the blank last (and ctc_loss_dense is a Python composite); "
                "not written",
    "ctc_beam_search_decoder": "TF's CTCBeamSearchDecoder lists all paths' indices, then values, then shapes; "
                               "tinytf's op interleaves them per path; not written",
})
