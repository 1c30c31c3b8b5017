"""model.summary(): Keras 3's table (the layout its `rich` table takes on an 80-column console when printed
to a file or pipe): heavy header box, a line between rows, right-aligned parameter counts, and the totals
with their memory size."""

from __future__ import annotations

import math
import shutil

from tinytf.runtime import nest


def _ratio_reduce(total: int, widths: list) -> list:
    """Take `total` columns away from `widths`, evenly, rounding as rich does."""
    result, remaining, ratio_left = [], total, len(widths)
    for width in widths:
        taken = min(width, round(remaining / ratio_left))
        result.append(width - taken)
        remaining -= taken
        ratio_left -= 1
    return result


def column_widths(positions: list, line_length: int) -> list:
    """The cell widths (padding included) Keras asks for, reduced to fit the line with borders and padding."""
    widths, current = [], 0
    for position in positions:
        width = int(position * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(width)
        current += width
    cells = [w + 2 for w in widths]
    excess = sum(cells) + len(cells) + 1 - line_length
    return _ratio_reduce(excess, cells) if excess > 0 else cells


def _wrap(text: str, width: int) -> list:
    """Greedy word wrap; a word longer than the line is cut short with an ellipsis (rich's default overflow)."""
    lines, line = [], ""
    for word in text.split(" "):
        if len(word) > width:
            word = word[:width - 1] + "…"
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= width:
            line = candidate
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return lines


def _row(cells: list, widths: list, aligns: list, bar: str) -> list:
    wrapped = [_wrap(text, w - 2) for text, w in zip(cells, widths)]
    height = max(len(lines) for lines in wrapped)
    out = []
    for i in range(height):
        parts = []
        for lines, width, align in zip(wrapped, widths, aligns):
            text = lines[i] if i < len(lines) else ""
            parts.append(" " + (text.rjust(width - 2) if align == "right" else text.ljust(width - 2)) + " ")
        out.append(bar + bar.join(parts) + bar)
    return out


def _rule(widths, left, fill, middle, right) -> str:
    return left + middle.join(fill * w for w in widths) + right


def format_shape(shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ")"


def format_layer_shape(layer) -> str:
    """The output shape of the layer's last symbolic call, else of its build shape, else '?'."""
    if layer._inbound_nodes:
        outputs = layer._inbound_nodes[-1].outputs
        shapes = nest.map_structure(lambda t: format_shape(t.shape), outputs)
    elif layer.built and layer._build_input_shape is not None:
        try:
            result = layer.compute_output_shape(layer._build_input_shape)
        except NotImplementedError:
            return "?"
        is_single = isinstance(result, tuple) and all(d is None or isinstance(d, int) for d in result)
        shapes = format_shape(result) if is_single else [format_shape(s) for s in result]
    else:
        return "?"
    flat = nest.flatten(shapes)
    return flat[0] if len(flat) == 1 else str(shapes).replace("'", "")


def _count(weights) -> int:
    return int(sum(math.prod(w.shape.as_list()) for w in {id(w): w for w in weights}.values()))


def _memory(weights) -> float:
    return sum(math.prod(w.shape.as_list()) * w.dtype.size for w in {id(w): w for w in weights}.values())


def readable_memory_size(size: float) -> str:
    for unit in ["B", "KB", "MB", "GB", "TB"]:
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _connections(layer, relevant_nodes) -> str:
    names = []
    for node in layer._inbound_nodes:
        if relevant_nodes is not None and node not in relevant_nodes:
            continue
        for tensor in node.input_tensors:
            source, source_node, index = tensor._keras_history
            names.append(f"{source.name}[{source._inbound_nodes.index(source_node)}][{index}]")
    return ", ".join(names) or "-"


def summary_lines(model, line_length=None, positions=None, layer_range=None) -> list:
    """The summary of `model` as lines of text."""
    layers = model._summary_rows() if hasattr(model, "_summary_rows") else model.layers
    sequential_like, relevant_nodes = model._summary_layout()
    if sequential_like:
        default_length, default_positions = 88, [0.45, 0.80, 1.0]
        header, aligns = ["Layer (type)", "Output Shape", "Param #"], ["left", "left", "right"]
    else:
        default_length, default_positions = 108, [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        aligns = ["left", "left", "right", "left"]
    line_length = line_length or min(default_length, shutil.get_terminal_size().columns - 4)
    widths = column_widths(positions or default_positions, line_length)
    lines = [f'Model: "{model.name}"', _rule(widths, "┏", "━", "┳", "┓")]
    lines += _row(header, widths, aligns, "┃")
    lines.append(_rule(widths, "┡", "━", "╇", "┩"))
    for i, layer in enumerate(layers):
        if not hasattr(layer, "built"):  # an Operation
            params = "0"
        else:
            params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        cells = [f"{layer.name} ({type(layer).__name__})", format_layer_shape(layer), params]
        if not sequential_like:
            cells.append(_connections(layer, relevant_nodes))
        if i:
            lines.append(_rule(widths, "├", "─", "┼", "┤"))
        lines += _row(cells, widths, aligns, "│")
    lines.append(_rule(widths, "└", "─", "┴", "┘"))
    trainable, non_trainable = model.trainable_weights, model.non_trainable_weights
    optimizer = getattr(model, "optimizer", None)
    # a built optimizer's variables count in the total, as Keras 3 counts them
    optimizer_variables = list(optimizer.variables) if getattr(optimizer, "built", False) else []
    total = _count(trainable) + _count(non_trainable) + _count(optimizer_variables)
    total_memory = _memory(trainable) + _memory(non_trainable) + _memory(optimizer_variables)
    lines.append(f" Total params: {total:,} ({readable_memory_size(total_memory)})")
    lines.append(f" Trainable params: {_count(trainable):,} ({readable_memory_size(_memory(trainable))})")
    lines.append(f" Non-trainable params: {_count(non_trainable):,} "
                 f"({readable_memory_size(_memory(non_trainable))})")
    if optimizer_variables:
        lines.append(f" Optimizer params: {_count(optimizer_variables):,} "
                     f"({readable_memory_size(_memory(optimizer_variables))})")
    return lines


__all__ = ["summary_lines"]
