"""tf.compat.v1.layers' separable convolutions (separable_conv1d / 2d, SeparableConv1D / 2D with depth
multipliers, strides, dilations, channels_first) and conv3d_transpose / Conv3DTranspose, in TF1 graphs and
sessions: TF1 variable names, values with weights set from fixed arrays, gradients. Recorded like tf1_layers
(tf_keras 2.21 installed, TF_USE_LEGACY_KERAS=1)."""

from __future__ import annotations

from . import program, val
from .tf1_rnn import inputs, set_fixed_weights


@program
def p_tf1_more_layers_separable(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        image = v1.placeholder(tf.float32, [2, 7, 6, 3])
        sep = v1.layers.separable_conv2d(image, 4, 3, padding="same", depth_multiplier=2, activation=tf.nn.relu)
        strided = v1.layers.separable_conv2d(image, 2, (2, 3), strides=2, use_bias=False)
        dilated = v1.layers.SeparableConv2D(3, 2, dilation_rate=2, name="dilated")(image)
        first = v1.layers.separable_conv2d(tf.transpose(image, [0, 3, 1, 2]), 2, 3, data_format="channels_first")
        seq = v1.placeholder(tf.float32, [2, 9, 3])
        sep1 = v1.layers.separable_conv1d(seq, 4, 3, depth_multiplier=2)
        sep1_strided = v1.layers.SeparableConv1D(2, 2, strides=2, padding="same")(seq)
        sep1_dilated = v1.layers.separable_conv1d(seq, 2, 3, dilation_rate=2, activation="tanh")
        loss = sum(tf.reduce_sum(t * t) for t in [sep, strided, dilated, first, sep1, sep1_strided, sep1_dilated])
        grads = tf.gradients(loss, [image, seq] + v1.trainable_variables())
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        names = [v.name for v in variables]
        shapes = [t.shape.as_list() for t in [sep, strided, dilated, first, sep1, sep1_strided, sep1_dilated]]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        result = sess.run([sep, strided, dilated, first, sep1, sep1_strided, sep1_dilated, grads],
                          {image: inputs([2, 7, 6, 3]), seq: inputs([2, 9, 3], 2.0)})
    return [names, shapes, val(result)]


@program
def p_tf1_more_layers_conv3d_transpose(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        volume = v1.placeholder(tf.float32, [1, 3, 4, 3, 2])
        up = v1.layers.conv3d_transpose(volume, 3, 2, strides=2)
        up_same = v1.layers.conv3d_transpose(volume, 2, (2, 3, 2), strides=(1, 2, 2), padding="same",
                                             activation=tf.nn.relu)
        layer = v1.layers.Conv3DTranspose(2, 3, use_bias=False, name="deconv")
        up_valid = layer(volume)
        loss = tf.reduce_sum(up * up) + tf.reduce_sum(up_same) + tf.reduce_sum(up_valid * up_valid)
        grads = tf.gradients(loss, [volume] + v1.trainable_variables())
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        names = [v.name for v in variables]
        shapes = [t.shape.as_list() for t in [up, up_same, up_valid]]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        result = sess.run([up, up_same, up_valid, grads], {volume: inputs([1, 3, 4, 3, 2])})
    return [names, shapes, layer.name, [w.name for w in layer.weights], val(result)]
