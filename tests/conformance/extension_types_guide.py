"""TF's "Extension types" guide (tensorflow.org/guide/extension_type), its code run as a user runs it: fields
and their conversions, the default constructor, repr, equality, validation, immutability, nested Specs,
retracing by spec, custom Specs, dispatch for one API and for every elementwise API, batchable types in
tf.data, extension types in tf.function, concrete functions, tf.cond, tf.while_loop and AutoGraph.
(No `from __future__ import annotations` here: the classes' annotations name the `tf` each program gets.)"""

import typing
from typing import List, Mapping, Tuple, Union

from . import program


def _masked(tf, batchable=False):
    base = tf.experimental.BatchableExtensionType if batchable else tf.experimental.ExtensionType

    class MaskedTensor(base):
        values: tf.Tensor
        mask: tf.Tensor

        def with_values(self, new_values):
            return MaskedTensor(new_values, self.mask)

        def __validate__(self):
            self.values.shape.assert_is_compatible_with(self.mask.shape)
            assert self.mask.dtype.is_bool, "mask.dtype must be bool"

    return MaskedTensor


def _show(mt):
    return [mt.values.numpy().tolist(), mt.mask.numpy().tolist()]


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and message are what is compared
        return [type(e).__name__, str(e)]
    return None


@program
def p_fields_constructor_repr_equality(tf):
    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    class Pencil(tf.experimental.ExtensionType):
        color: str = "black"
        has_erasor: bool = True
        length: tf.Tensor = 1.0

    mt = MaskedTensor(values=[[1, 2, 3], [4, 5, 6]], mask=[[True, True, False], [True, False, True]])
    a = MaskedTensor([1, 2], [True, False])
    b = MaskedTensor([[3, 4], [5, 6]], [[False, True], [True, True]])
    return [repr(mt.values), _error(lambda: MaskedTensor([1, 2, 3], None)), repr(Pencil()),
            repr(Pencil(length=0.5, color="blue")), repr(MaskedTensor(values=[1, 2, 3], mask=[True, True, False])),
            f"{a == a}", f"{a == b}", f"{a == a.values}", repr(a != a), repr(a == MaskedTensor([1, 3], [True, False]))]


@program
def p_validation_and_immutability(tf):
    MaskedTensor = _masked(tf)
    mt = MaskedTensor([1, 2, 3], [True, False, True])

    def assign():
        mt.mask = [True, True, True]

    def delete():
        del mt.mask

    return [_error(lambda: MaskedTensor([1, 2, 3], [0, 1, 0])), _error(lambda: MaskedTensor([1, 2, 3], [True, False])),
            _error(assign), _error(delete), _show(mt)]


@program
def p_field_types(tf):
    class Node(tf.experimental.ExtensionType):
        value: tf.Tensor
        children: Tuple["Node", ...] = ()

    class Everything(tf.experimental.ExtensionType):
        name: str
        shape: tf.TensorShape
        dtype: tf.DType
        sizes: Tuple[int, ...]
        pair: Tuple[int, float]
        tags: Mapping[str, tf.Tensor]
        either: Union[int, float] = 3
        weight: typing.Optional[tf.Tensor] = None

    e = Everything("e", [2, None], "float32", [1, 2], (3, 4.5), {"b": 1.0, "a": [1, 2]})
    spec = tf.type_spec_from_value(e)
    return [_error(lambda: Node(3, [Node(5), Node(2)])), repr(Node(3)), repr(e), type(e.sizes).__name__, repr(spec),
            _error(lambda: Everything(3, [1], tf.float32, [], (1, 2.0), {})),
            _error(lambda: Everything("x", [1], tf.float32, [], (1, 2), {})),
            _error(lambda: Everything("x", [1], tf.float32, [], (1, 2.0), {}, either="no")),
            [t.numpy().tolist() for t in tf.nest.flatten(e, expand_composites=True)]]


@program
def p_nested_spec_and_retracing(tf):
    class Player(tf.experimental.ExtensionType):
        name: tf.Tensor
        attributes: Mapping[str, tf.Tensor]

    anne = Player("Anne", {"height": 8.3, "speed": 28.1})
    anne_spec = tf.type_spec_from_value(anne)
    traces = []

    @tf.function
    def anonymize_player(player):
        traces.append(1)
        return Player("<anonymous>", player.attributes)

    out = [anonymize_player(Player("Anne", {"height": 8.3, "speed": 28.1})),
           anonymize_player(Player("Bart", {"height": 8.1, "speed": 25.3})),
           anonymize_player(Player("Chuck", {"height": 11.0, "jump": 5.3}))]
    spec1 = Player.Spec(name=tf.TensorSpec([], tf.float32), attributes={})
    return [repr(anne_spec.name), repr(anne_spec.attributes), len(traces), [repr(p) for p in out], repr(spec1),
            anne_spec == tf.type_spec_from_value(Player("Zed", {"height": 1.0, "speed": 2.0}))]


@program
def p_methods_subclasses_custom_spec(tf):
    class TensorGraph(tf.experimental.ExtensionType):
        num_nodes: tf.Tensor
        edge_src: tf.Tensor
        edge_dst: tf.Tensor

    class TensorGraphWithNodeFeature(TensorGraph):
        node_features: tf.Tensor

        def propagate_features(self, weight=1.0):
            updates = tf.gather(self.node_features, self.edge_src) * weight
            new_node_features = tf.tensor_scatter_nd_add(self.node_features, tf.expand_dims(self.edge_dst, 1), updates)
            return TensorGraphWithNodeFeature(self.num_nodes, self.edge_src, self.edge_dst, new_node_features)

    g = TensorGraphWithNodeFeature(num_nodes=5, edge_src=[0, 4, 2, 2], edge_dst=[1, 3, 2, 1],
                                   node_features=[10.0, 0.0, 2.0, 5.0, -1.0, 0.0])

    class Toy(tf.experimental.ExtensionType):
        name: str
        price: tf.Tensor

        def __init__(self, name, price, discount=0):
            self.name = name
            self.price = price * (1 - discount)

    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor
        shape = property(lambda self: self.values.shape)
        dtype = property(lambda self: self.values.dtype)

        class Spec:
            def __init__(self, shape, dtype=tf.float32):
                self.values = tf.TensorSpec(shape, dtype)
                self.mask = tf.TensorSpec(shape, tf.bool)

            shape = property(lambda self: self.values.shape)
            dtype = property(lambda self: self.values.dtype)

    spec = MaskedTensor.Spec([None, 2], tf.int32)

    @tf.function(input_signature=[spec])
    def double(x):
        return MaskedTensor(x.values * 2, x.mask)

    doubled = double(MaskedTensor([[1, 2]], [[True, False]]))
    return [g.propagate_features().node_features.numpy().tolist(), repr(Toy("ball", 5.0, discount=0.2)),
            repr(spec), repr(spec.shape), spec.dtype.name, _show(doubled),
            [repr(s) for s in double.get_concrete_function().structured_input_signature[0]]]


@program
def p_dispatch(tf):
    MaskedTensor = _masked(tf)

    def convert(x):
        return x if isinstance(x, MaskedTensor) else MaskedTensor(x, tf.ones_like(x, tf.bool))

    @tf.experimental.dispatch_for_api(tf.stack)
    def masked_stack(values: List[MaskedTensor], axis=0):
        return MaskedTensor(tf.stack([v.values for v in values], axis), tf.stack([v.mask for v in values], axis))

    x = MaskedTensor([1, 2, 3], [True, True, False])
    y = MaskedTensor([4, 5, 6], [False, True, True])
    out = [_show(tf.stack([x, y]))]
    tf.experimental.unregister_dispatch_for(masked_stack)

    @tf.experimental.dispatch_for_api(tf.stack)
    def masked_stack_v2(values: List[Union[MaskedTensor, tf.Tensor]], axis=0):
        values = [convert(v) for v in values]
        return MaskedTensor(tf.stack([v.values for v in values], axis), tf.stack([v.mask for v in values], axis))

    out.append(_show(tf.stack([x, tf.constant([4, 5, 6]), x])))
    out.append(tf.stack([tf.constant(1), tf.constant(2)]).numpy().tolist())

    @tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)
    def unary(api_func, x):
        return MaskedTensor(api_func(x.values), x.mask)

    @tf.experimental.dispatch_for_binary_elementwise_apis(MaskedTensor, MaskedTensor)
    def binary(api_func, x, y):
        return MaskedTensor(api_func(x.values, y.values), x.mask & y.mask)

    x = MaskedTensor([1, -2, -3], [True, False, True])
    y = MaskedTensor([[4], [5]], [[True], [False]])
    out += [_show(tf.abs(x)), _show(tf.ones_like(x, dtype=tf.float32)), _show(tf.math.add(x, y)),
            _show(tf.maximum(x, y)), _show(tf.cast(x, tf.float32)), _show(tf.math.negative(x))]
    out.append(_error(lambda: tf.math.add(x, 3))[0])  # no target matches a Python int: the API refuses x
    out.append(_error(lambda: tf.experimental.unregister_dispatch_for(masked_stack))[0])

    def bad_signature():
        @tf.experimental.dispatch_for_api(tf.math.add)
        def f(x, z, name=None):
            return x

    def unknown_parameter():
        @tf.experimental.dispatch_for_api(tf.math.add, {"z": MaskedTensor})
        def g(x, y, name=None):
            return x

    def no_signature():
        @tf.experimental.dispatch_for_api(tf.math.add)
        def h(x, y, name=None):
            return x

    out += [_error(bad_signature)[0], _error(unknown_parameter), _error(no_signature)]
    for fn in (masked_stack_v2, unary, binary):
        tf.experimental.unregister_dispatch_for(fn)
    out.append(_error(lambda: tf.abs(x))[0])
    return out


@program
def p_function_control_flow_autograph(tf):
    MaskedTensor = _masked(tf)

    class Pastry(tf.experimental.ExtensionType):
        sweetness: tf.Tensor
        chewiness: tf.Tensor

    @tf.function
    def combine_pastry_features(x: Pastry):
        return (x.sweetness + x.chewiness) / 2

    cookie = Pastry(sweetness=[1.2, 0.4], chewiness=[0.8, 0.2])
    pastry_spec = Pastry.Spec(tf.TensorSpec([2]), tf.TensorSpec(2))

    @tf.function(input_signature=[pastry_spec])
    def increase_sweetness(x: Pastry, delta=1.0):
        return Pastry(x.sweetness + delta, x.chewiness)

    cf = combine_pastry_features.get_concrete_function(pastry_spec)
    a = MaskedTensor([1., 2, 3], [True, False, True])
    b = MaskedTensor([22., 33, 108, 55], [True, True, True, False])

    def body(i, mt):
        return i + 1, mt.with_values(mt.values + 3 / 7)

    @tf.function
    def fn(x, flag):
        if flag:
            x = MaskedTensor(x, tf.less(x, 0))
        else:
            x = MaskedTensor(x, tf.greater(x, 0))
        for _i in tf.range(5 if flag else 7):
            x = x.with_values(x.values + 1 / 2)
        return x

    return [combine_pastry_features(cookie).numpy().tolist(), repr(increase_sweetness(cookie)),
            cf(cookie).numpy().tolist(), _show(tf.cond(tf.constant(True), lambda: a, lambda: b)),
            _show(tf.cond(tf.constant(False), lambda: a, lambda: b)),
            _show(tf.while_loop(lambda i, _: i < 10, body, [0, b])[1]),
            _show(fn(tf.constant([1., -2, 3]), tf.constant(True))),
            _show(fn(tf.constant([1., -2, 3]), tf.constant(False)))]


@program
def p_batchable_in_datasets(tf):
    MaskedTensor = _masked(tf, batchable=True)

    class Network(tf.experimental.BatchableExtensionType):
        shape: tf.TensorShape
        work: tf.Tensor
        bandwidth: tf.Tensor

        def __init__(self, work, bandwidth):
            self.work = tf.convert_to_tensor(work)
            self.bandwidth = tf.convert_to_tensor(bandwidth)
            self.shape = self.work.shape[:-1].merge_with(self.bandwidth.shape[:-2])

    net1 = Network([5., 3, 8], [[0., 2, 0], [2, 0, 3], [0, 3, 0]])
    net2 = Network([3., 4, 2], [[0., 2, 2], [2, 0, 2], [2, 2, 0]])
    batch = Network(work=tf.stack([net1.work, net2.work]), bandwidth=tf.stack([net1.bandwidth, net2.bandwidth]))
    out = [[repr(n.shape), n.work.numpy().tolist()] for n in tf.data.Dataset.from_tensor_slices(batch)]
    mt = MaskedTensor(tf.reshape(range(20), [5, 4]), tf.reshape(tf.range(20) % 3 > 0, [5, 4]))
    out.append([_show(v) for v in tf.data.Dataset.from_tensor_slices(mt)])

    def value_gen():
        for i in range(2, 7):
            yield MaskedTensor(range(10), [j % i != 0 for j in range(10)])

    ds = tf.data.Dataset.from_generator(value_gen, output_signature=MaskedTensor.Spec(
        values=tf.TensorSpec([10], tf.int32), mask=tf.TensorSpec([10], tf.bool)))
    batched = ds.batch(2)
    out += [[_show(v) for v in batched], repr(batched.element_spec), [_show(v) for v in batched.unbatch()],
            repr(ds.element_spec), [_show(v) for v in ds.map(lambda m: m.with_values(m.values * 2)).take(2)],
            repr(tf.data.Dataset.from_tensors(net1).element_spec),
            repr(tf.data.Dataset.from_tensors(batch).unbatch().element_spec)]
    return out
