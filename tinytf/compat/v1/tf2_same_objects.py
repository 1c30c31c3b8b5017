"""The names of tf.compat.v1 that TF 2.21 gives as TF2 names: SAME_OBJECTS holds those that are the very
objects of TF2 names (`tf.compat.v1.X is tf.X`, `tf.compat.v1.random_normal is tf.random.normal`),
SAME_SIGNATURE those whose function is the TF2 function of the same namespace re-wrapped, with its
signature (`tf.compat.v1.math.abs`). Namespace -> entries, each "NAME" (the TF2 name of the same
namespace) or "NAME=TF2.PATH" ("NAME=compat.v1.PATH" where it is a TF1 object of another v1 name,
tf.compat.v1.math.argmax is tf.compat.v1.argmax). Written by tools/list_tf1_aliases.py from TF 2.21;
tf1_aliases.py resolves them when first read, so a TF2 name that tinytf lacks is missing from
tf.compat.v1 too."""

SAME_OBJECTS = {
    "": """
        AggregationMethod Assert CriticalSection DType FIFOQueue=queue.FIFOQueue
        FixedLenFeature=io.FixedLenFeature FixedLenSequenceFeature=io.FixedLenSequenceFeature GradientTape Graph
        IndexedSlices IndexedSlicesSpec Module NoGradient=no_gradient NoneTensorSpec
        NotDifferentiable=no_gradient OpError=errors.OpError Operation OptionalSpec
        PaddingFIFOQueue=queue.PaddingFIFOQueue PriorityQueue=queue.PriorityQueue
        QUANTIZED_DTYPES=dtypes.QUANTIZED_DTYPES QueueBase=queue.QueueBase RaggedTensor RaggedTensorSpec
        RandomShuffleQueue=queue.RandomShuffleQueue RegisterGradient SparseFeature=io.SparseFeature SparseTensor
        SparseTensorSpec Tensor TensorArray TensorArraySpec TensorShape TensorSpec TypeSpec UnconnectedGradients
        VarLenFeature=io.VarLenFeature VariableSynchronization abs accumulate_n=math.accumulate_n acos acosh add
        add_n angle=math.angle approx_top_k argsort as_dtype as_string asin asinh
        assert_proper_iterable=debugging.assert_proper_iterable
        assert_same_float_dtype=debugging.assert_same_float_dtype atan atan2 atanh betainc=math.betainc bfloat16
        bitcast bool broadcast_dynamic_shape broadcast_static_shape broadcast_to cast ceil=math.ceil
        check_numerics=debugging.check_numerics check_pinned cholesky=linalg.cholesky
        cholesky_solve=linalg.cholesky_solve clip_by_global_norm clip_by_norm clip_by_value complex complex128
        complex64 concat conj=math.conj control_dependencies conv conv2d_backprop_filter_v2
        conv2d_backprop_input_v2 cos cosh cross=linalg.cross cumprod=math.cumprod cumsum custom_gradient
        decode_base64=io.decode_base64 decode_compressed=io.decode_compressed
        decode_json_example=io.decode_json_example dequantize=quantization.dequantize
        deserialize_many_sparse=io.deserialize_many_sparse diag=linalg.tensor_diag
        diag_part=linalg.tensor_diag_part digamma=math.digamma dimension_at_index=compat.dimension_at_index
        dimension_value=compat.dimension_value div_no_nan=math.divide_no_nan divide double dynamic_partition
        dynamic_stitch edit_distance einsum encode_base64=io.encode_base64 ensure_shape equal erf=math.erf
        erfc=math.erfc exp expm1=math.expm1 extract_volume_patches eye
        fake_quant_with_min_max_args=quantization.fake_quant_with_min_max_args
        fake_quant_with_min_max_args_gradient=quantization.fake_quant_with_min_max_args_gradient
        fake_quant_with_min_max_vars=quantization.fake_quant_with_min_max_vars
        fake_quant_with_min_max_vars_gradient=quantization.fake_quant_with_min_max_vars_gradient
        fake_quant_with_min_max_vars_per_channel=quantization.fake_quant_with_min_max_vars_per_channel fake_quan
        t_with_min_max_vars_per_channel_gradient=quantization.fake_quant_with_min_max_vars_per_channel_gradient
        fft=signal.fft fft2d=signal.fft2d fft3d=signal.fft3d fftnd fill fingerprint float16 float32
        float64=double floor floordiv=math.floordiv floormod=math.floormod function get_logger get_static_value
        global_norm=linalg.global_norm grad_pass_through greater greater_equal group guarantee_const
        half=float16 histogram_fixed_width histogram_fixed_width_bins identity identity_n ifft=signal.ifft
        ifft2d=signal.ifft2d ifft3d=signal.ifft3d ifftnd igamma=math.igamma igammac=math.igammac imag=math.imag
        import_graph_def init_scope int16 int32 int64 int8 invert_permutation=math.invert_permutation irfftnd
        is_finite=math.is_finite is_inf=math.is_inf is_nan=math.is_nan is_non_decreasing=math.is_non_decreasing
        is_numeric_tensor=debugging.is_numeric_tensor is_strictly_increasing=math.is_strictly_increasing
        is_symbolic_tensor is_tensor lbeta=math.lbeta less less_equal lgamma=math.lgamma lin_space=linspace
        linspace load_library load_op_library log=math.log log1p=math.log1p log_sigmoid=math.log_sigmoid
        logical_and logical_not logical_or logical_xor=math.logical_xor make_ndarray make_tensor_proto
        matching_files=io.matching_files matmul matrix_band_part=linalg.band_part matrix_determinant=linalg.det
        matrix_diag=linalg.diag matrix_diag_part=linalg.diag_part matrix_inverse=linalg.inv
        matrix_set_diag=linalg.set_diag matrix_solve=linalg.solve matrix_solve_ls=linalg.lstsq
        matrix_square_root matrix_transpose=linalg.matrix_transpose
        matrix_triangular_solve=linalg.triangular_solve maximum meshgrid minimum mod=math.floormod multiply
        negative no_gradient no_op nondifferentiable_batch_function not_equal numpy_function one_hot ones
        parallel_stack parse_single_sequence_example=io.parse_single_sequence_example
        parse_tensor=io.parse_tensor polygamma=math.polygamma pow print py_function qint16 qint32 qint8
        qr=linalg.qr quantize=quantization.quantize quantized_concat=quantization.quantized_concat quint16
        quint8 ragged_fill_empty_rows ragged_fill_empty_rows_grad random_crop=image.random_crop
        random_gamma=random.gamma random_index_shuffle random_normal=random.normal random_shuffle=random.shuffle
        random_uniform=random.uniform range rank read_file=io.read_file real=math.real realdiv
        reciprocal=math.reciprocal recompute_grad regex_replace=strings.regex_replace
        register_tensor_conversion_function repeat required_space_to_batch_paddings reshape resource reverse
        reverse_v2=reverse rfftnd rint=math.rint roll round rsqrt=math.rsqrt saturate_cast scatter_nd
        searchsorted segment_max=math.segment_max segment_mean=math.segment_mean segment_min=math.segment_min
        segment_prod=math.segment_prod segment_sum=math.segment_sum self_adjoint_eig=linalg.eigh
        self_adjoint_eigvals=linalg.eigvalsh sequence_mask serialize_tensor=io.serialize_tensor shape_n sigmoid
        sign sin sinh slice sort space_to_batch_nd sparse_fill_empty_rows=sparse.fill_empty_rows
        sparse_mask=sparse.mask sparse_maximum=sparse.maximum sparse_minimum=sparse.minimum
        sparse_reorder=sparse.reorder sparse_reset_shape=sparse.reset_shape sparse_reshape=sparse.reshape
        sparse_retain=sparse.retain sparse_slice=sparse.slice sparse_softmax=sparse.softmax
        sparse_tensor_dense_matmul=sparse.sparse_dense_matmul sparse_tensor_to_dense=sparse.to_dense
        sparse_to_indicator=sparse.to_indicator sparse_transpose=sparse.transpose split sqrt square
        squared_difference=math.squared_difference stack stop_gradient strided_slice string
        string_join=strings.join string_strip=strings.strip
        string_to_hash_bucket_fast=strings.to_hash_bucket_fast
        string_to_hash_bucket_strong=strings.to_hash_bucket_strong subtract svd=linalg.svd switch_case tan tanh
        tensor_scatter_add=tensor_scatter_nd_add tensor_scatter_nd_add tensor_scatter_nd_max
        tensor_scatter_nd_min tensor_scatter_nd_sub tensor_scatter_nd_update
        tensor_scatter_sub=tensor_scatter_nd_sub tensor_scatter_update=tensor_scatter_nd_update tensordot tile
        timestamp trace=linalg.trace truediv truncated_normal=random.truncated_normal truncatediv truncatemod
        type_spec_from_value uint16 uint32 uint64 uint8 unique unique_with_counts unravel_index
        unsorted_segment_max=math.unsorted_segment_max unsorted_segment_mean=math.unsorted_segment_mean
        unsorted_segment_min=math.unsorted_segment_min unsorted_segment_prod=math.unsorted_segment_prod
        unsorted_segment_sqrt_n=math.unsorted_segment_sqrt_n unsorted_segment_sum=math.unsorted_segment_sum
        unstack variant vectorized_map where_v2=where write_file=io.write_file zeros zeta=math.zeta
    """.split(),
    "audio": """
        decode_wav encode_wav
    """.split(),
    "autograph": """
        set_verbosity trace
    """.split(),
    "autograph.experimental": """
        Feature do_not_convert set_loop_options
    """.split(),
    "bitwise": """
        bitwise_and bitwise_or bitwise_xor invert left_shift right_shift
    """.split(),
    "config": """
        LogicalDevice LogicalDeviceConfiguration PhysicalDevice experimental_connect_to_cluster
        experimental_connect_to_host experimental_functions_run_eagerly experimental_run_functions_eagerly
        functions_run_eagerly get_logical_device_configuration get_soft_device_placement get_visible_devices
        list_logical_devices list_physical_devices run_functions_eagerly set_logical_device_configuration
        set_soft_device_placement set_visible_devices
    """.split(),
    "config.experimental": """
        ClusterDeviceFilters VirtualDeviceConfiguration=config.LogicalDeviceConfiguration disable_mlir_bridge
        enable_mlir_bridge enable_tensor_float_32_execution get_device_details get_device_policy
        get_memory_growth get_memory_info get_memory_usage get_synchronous_execution
        get_virtual_device_configuration=config.get_logical_device_configuration
        get_visible_devices=config.get_visible_devices list_logical_devices=config.list_logical_devices
        list_physical_devices=config.list_physical_devices reset_memory_stats set_device_policy
        set_memory_growth set_synchronous_execution
        set_virtual_device_configuration=config.set_logical_device_configuration
        set_visible_devices=config.set_visible_devices tensor_float_32_execution_enabled
    """.split(),
    "config.optimizer": """
        get_experimental_options get_jit set_experimental_options set_jit
    """.split(),
    "config.threading": """
        get_inter_op_parallelism_threads get_intra_op_parallelism_threads set_inter_op_parallelism_threads
        set_intra_op_parallelism_threads
    """.split(),
    "data": """
        AUTOTUNE DatasetSpec INFINITE_CARDINALITY NumpyIterator Options ThreadingOptions UNKNOWN_CARDINALITY
    """.split(),
    "data.experimental": """
        AUTOTUNE AutoShardPolicy AutotuneAlgorithm AutotuneOptions DatasetInitializer
        DatasetStructure=data.DatasetSpec DistributeOptions ExternalStatePolicy INFINITE_CARDINALITY
        OptimizationOptions Optional=experimental.Optional OptionalStructure=OptionalSpec Reducer SHARD_HINT
        ServiceOptions Structure=TypeSpec TFRecordWriter ThreadingOptions=data.ThreadingOptions
        UNKNOWN_CARDINALITY assert_cardinality bucket_by_sequence_length cardinality copy_to_device
        dense_to_ragged_batch dense_to_sparse_batch distributed_save enable_debug_mode enumerate_dataset
        from_list from_variant get_model_proto get_next_as_optional get_single_element get_structure
        group_by_reducer group_by_window ignore_errors index_table_from_dataset make_saveable_from_iterator
        map_and_batch pad_to_cardinality parallel_interleave parse_example_dataset prefetch_to_device
        rejection_resample scan shuffle_and_repeat snapshot table_from_dataset take_while to_variant unbatch
        unique
    """.split(),
    "data.experimental.service": """
        CrossTrainerCache DispatcherConfig ShardingPolicy WorkerConfig distribute from_dataset_id
        register_dataset
    """.split(),
    "debugging": """
        Assert=Assert assert_all_finite=compat.v1.verify_tensor_all_finite assert_equal=compat.v1.assert_equal
        assert_greater=compat.v1.assert_greater assert_greater_equal=compat.v1.assert_greater_equal
        assert_integer=compat.v1.assert_integer assert_less=compat.v1.assert_less
        assert_less_equal=compat.v1.assert_less_equal assert_near=compat.v1.assert_near
        assert_negative=compat.v1.assert_negative assert_non_negative=compat.v1.assert_non_negative
        assert_non_positive=compat.v1.assert_non_positive assert_none_equal=compat.v1.assert_none_equal
        assert_positive=compat.v1.assert_positive assert_proper_iterable assert_rank=compat.v1.assert_rank
        assert_rank_at_least=compat.v1.assert_rank_at_least assert_rank_in=compat.v1.assert_rank_in
        assert_same_float_dtype assert_scalar=compat.v1.assert_scalar assert_type=compat.v1.assert_type
        disable_check_numerics disable_traceback_filtering enable_check_numerics enable_traceback_filtering
        get_log_device_placement is_finite=math.is_finite is_inf=math.is_inf is_nan=math.is_nan
        is_non_decreasing=math.is_non_decreasing is_numeric_tensor
        is_strictly_increasing=math.is_strictly_increasing is_traceback_filtering_enabled
        set_log_device_placement
    """.split(),
    "debugging.experimental": """
        disable_dump_debug_info enable_dump_debug_info
    """.split(),
    "distribute": """
        CrossDeviceOps HierarchicalCopyAllReduce InputContext InputReplicationMode NcclAllReduce ReduceOp
        ReductionToOneDevice RunOptions Server experimental_set_strategy get_replica_context get_strategy
        has_strategy in_cross_replica_context
    """.split(),
    "distribute.cluster_resolver": """
        ClusterResolver GCEClusterResolver KubernetesClusterResolver KubernetesExecutableLocation
        SimpleClusterResolver SlurmClusterResolver TFConfigClusterResolver TPUClusterResolver UnionResolver
    """.split(),
    "distribute.experimental": """
        CollectiveCommunication CollectiveHints
        CommunicationImplementation=distribute.experimental.CollectiveCommunication CommunicationOptions
    """.split(),
    "dtypes": """
        DType=DType QUANTIZED_DTYPES as_dtype=as_dtype as_string=as_string bfloat16=bfloat16 bool=bool cast=cast
        complex=complex complex128=complex128 complex64=complex64 double=double float16=float16 float32=float32
        float64=double half=float16 int16=int16 int32=int32 int64=int64 int8=int8 qint16=qint16 qint32=qint32
        qint8=qint8 quint16=quint16 quint8=quint8 resource=resource saturate_cast=saturate_cast string=string
        uint16=uint16 uint32=uint32 uint64=uint64 uint8=uint8 variant=variant
    """.split(),
    "dtypes.experimental": """
        float4_e2m1fn=experimental.float4_e2m1fn float8_e4m3b11fnuz=experimental.float8_e4m3b11fnuz
        float8_e4m3fn=experimental.float8_e4m3fn float8_e4m3fnuz=experimental.float8_e4m3fnuz
        float8_e5m2=experimental.float8_e5m2 float8_e5m2fnuz=experimental.float8_e5m2fnuz int2=experimental.int2
        int4=experimental.int4 uint2=experimental.uint2 uint4=experimental.uint4
    """.split(),
    "errors": """
        ABORTED ALREADY_EXISTS AbortedError AlreadyExistsError CANCELLED CancelledError DATA_LOSS
        DEADLINE_EXCEEDED DataLossError DeadlineExceededError FAILED_PRECONDITION FailedPreconditionError
        INTERNAL INVALID_ARGUMENT InternalError InvalidArgumentError NOT_FOUND NotFoundError OK OUT_OF_RANGE
        OpError OutOfRangeError PERMISSION_DENIED PermissionDeniedError RESOURCE_EXHAUSTED
        ResourceExhaustedError UNAUTHENTICATED UNAVAILABLE UNIMPLEMENTED UNKNOWN UnauthenticatedError
        UnavailableError UnimplementedError UnknownError
    """.split(),
    "experimental": """
        BatchableExtensionType DynamicRaggedShape ExtensionType ExtensionTypeBatchEncoder ExtensionTypeSpec
        Optional RowPartition StructuredTensor async_clear_error async_scope dispatch_for_api
        dispatch_for_binary_elementwise_apis dispatch_for_binary_elementwise_assert_apis
        dispatch_for_unary_elementwise_apis enable_strict_mode float4_e2m1fn float8_e4m3b11fnuz float8_e4m3fn
        float8_e4m3fnuz float8_e5m2 float8_e5m2fnuz function_executor_type int2 int4 register_filesystem_plugin
        uint2 uint4 unregister_dispatch_for
    """.split(),
    "experimental.extension_type": """
        as_dict
    """.split(),
    "graph_util": """
        import_graph_def=import_graph_def
    """.split(),
    "image": """
        adjust_brightness adjust_contrast adjust_gamma adjust_hue adjust_jpeg_quality adjust_saturation
        central_crop combined_non_max_suppression convert_image_dtype crop_to_bounding_box decode_and_crop_jpeg
        decode_bmp decode_gif decode_image decode_jpeg decode_jxl decode_png decode_webp encode_jpeg encode_png
        extract_jpeg_shape flip_left_right flip_up_down generate_bounding_box_proposals grayscale_to_rgb
        hsv_to_rgb image_gradients is_jpeg non_max_suppression non_max_suppression_overlaps
        non_max_suppression_padded non_max_suppression_with_scores pad_to_bounding_box per_image_standardization
        psnr random_brightness random_contrast random_crop random_flip_left_right random_flip_up_down random_hue
        random_jpeg_quality random_saturation resize_image_with_crop_or_pad=image.resize_with_crop_or_pad
        resize_images=compat.v1.image.resize resize_with_crop_or_pad rgb_to_grayscale rgb_to_hsv rgb_to_yiq
        rgb_to_yuv rot90 sobel_edges ssim ssim_multiscale total_variation transpose
        transpose_image=image.transpose yiq_to_rgb yuv_to_rgb
    """.split(),
    "initializers": """
        constant=compat.v1.constant_initializer global_variables=compat.v1.global_variables_initializer
        glorot_normal=compat.v1.glorot_normal_initializer glorot_uniform=compat.v1.glorot_uniform_initializer
        local_variables=compat.v1.local_variables_initializer ones=compat.v1.ones_initializer
        orthogonal=compat.v1.orthogonal_initializer random_normal=compat.v1.random_normal_initializer
        random_uniform=compat.v1.random_uniform_initializer tables_initializer=compat.v1.tables_initializer
        truncated_normal=compat.v1.truncated_normal_initializer
        uniform_unit_scaling=compat.v1.uniform_unit_scaling_initializer
        variables=compat.v1.variables_initializer variance_scaling=compat.v1.variance_scaling_initializer
        zeros=compat.v1.zeros_initializer
    """.split(),
    "io": """
        FixedLenFeature FixedLenSequenceFeature PaddingFIFOQueue=queue.PaddingFIFOQueue
        PriorityQueue=queue.PriorityQueue QueueBase=queue.QueueBase RaggedFeature
        RandomShuffleQueue=queue.RandomShuffleQueue SparseFeature TFRecordOptions TFRecordWriter VarLenFeature
        decode_and_crop_jpeg=image.decode_and_crop_jpeg decode_base64 decode_bmp=image.decode_bmp
        decode_compressed decode_csv=compat.v1.decode_csv decode_gif=image.decode_gif
        decode_image=image.decode_image decode_jpeg=image.decode_jpeg decode_json_example
        decode_jxl=image.decode_jxl decode_png=image.decode_png decode_proto decode_raw=compat.v1.decode_raw
        decode_webp=image.decode_webp deserialize_many_sparse encode_base64 encode_jpeg=image.encode_jpeg
        encode_png=image.encode_png encode_proto extract_jpeg_shape=image.extract_jpeg_shape
        is_jpeg=image.is_jpeg match_filenames_once matching_files parse_example=compat.v1.parse_example
        parse_sequence_example parse_single_example=compat.v1.parse_single_example parse_single_sequence_example
        parse_tensor read_file serialize_many_sparse=compat.v1.serialize_many_sparse
        serialize_sparse=compat.v1.serialize_sparse serialize_tensor write_file write_graph
    """.split(),
    "io.gfile": """
        GFile copy exists get_registered_schemes glob isdir join listdir makedirs mkdir remove rename rmtree
        stat walk
    """.split(),
    "linalg": """
        LinearOperator LinearOperatorAdjoint LinearOperatorBlockDiag LinearOperatorBlockLowerTriangular
        LinearOperatorCirculant LinearOperatorCirculant2D LinearOperatorCirculant3D LinearOperatorComposition
        LinearOperatorDiag LinearOperatorFullMatrix LinearOperatorHouseholder LinearOperatorIdentity
        LinearOperatorInversion LinearOperatorKronecker LinearOperatorLowRankUpdate
        LinearOperatorLowerTriangular LinearOperatorPermutation LinearOperatorScaledIdentity
        LinearOperatorToeplitz LinearOperatorTridiag LinearOperatorZeros adjoint band_part cholesky
        cholesky_solve cross det eigh eigh_tridiagonal eigvalsh einsum=einsum expm eye=eye global_norm inv
        l2_normalize=nn.l2_normalize logdet logm lstsq lu lu_matrix_inverse lu_reconstruct lu_solve matrix_rank
        matvec norm=compat.v1.norm normalize pinv qr set_diag slogdet solve sqrtm=matrix_square_root svd
        tensor_diag tensordot=tensordot transpose=compat.v1.linalg.matrix_transpose triangular_solve
        tridiagonal_matmul tridiagonal_solve
    """.split(),
    "linalg.experimental": """
        conjugate_gradient
    """.split(),
    "lookup": """
        KeyValueTensorInitializer TextFileIndex TextFileInitializer
    """.split(),
    "lookup.experimental": """
        DenseHashTable MutableHashTable
    """.split(),
    "manip": """
        batch_to_space_nd=compat.v1.batch_to_space_nd gather_nd=compat.v1.gather_nd reverse=reverse roll=roll
        scatter_nd=scatter_nd space_to_batch_nd=space_to_batch_nd tile=tile
    """.split(),
    "math": """
        accumulate_n add_n=add_n approx_max_k=nn.approx_max_k approx_min_k=nn.approx_min_k
        argmax=compat.v1.argmax argmin=compat.v1.argmin atan2=atan2 betainc bincount=compat.v1.bincount
        confusion_matrix=compat.v1.confusion_matrix count_nonzero=compat.v1.count_nonzero cumprod cumsum=cumsum
        cumulative_logsumexp equal=equal floordiv greater=greater greater_equal=greater_equal igamma igammac
        in_top_k=compat.v1.nn.in_top_k invert_permutation is_finite is_inf is_nan is_non_decreasing
        is_strictly_increasing l2_normalize=nn.l2_normalize lbeta less=less less_equal=less_equal
        log_softmax=compat.v1.nn.log_softmax logical_and=logical_and logical_not=logical_not
        logical_or=logical_or logical_xor mod=compat.v1.math.floormod nextafter not_equal=not_equal polygamma
        polyval pow=pow reduce_all=compat.v1.reduce_all reduce_any=compat.v1.reduce_any
        reduce_logsumexp=compat.v1.reduce_logsumexp segment_max segment_mean segment_min segment_prod
        segment_sum sigmoid=compat.v1.nn.sigmoid sobol_sample softmax=compat.v1.nn.softmax
        softplus=compat.v1.nn.softplus softsign=nn.softsign squared_difference subtract=subtract
        tanh=compat.v1.nn.tanh top_k=nn.top_k truediv=truediv unsorted_segment_max unsorted_segment_mean
        unsorted_segment_min unsorted_segment_prod unsorted_segment_sqrt_n unsorted_segment_sum xdivy xlog1py
        xlogy zero_fraction=nn.zero_fraction zeta
    """.split(),
    "mixed_precision.experimental": """
        DynamicLossScale=compat.v1.mixed_precision.DynamicLossScale
        FixedLossScale=compat.v1.mixed_precision.FixedLossScale LossScale=compat.v1.mixed_precision.LossScale
    """.split(),
    "nn": """
        all_candidate_sampler approx_max_k approx_min_k atrous_conv2d atrous_conv2d_transpose avg_pool1d
        avg_pool2d=compat.v1.nn.avg_pool avg_pool3d avg_pool_v2=nn.avg_pool batch_normalization bias_add
        collapse_repeated compute_accidental_hits compute_average_loss conv1d_transpose
        conv3d_backprop_filter_v2=compat.v1.nn.conv3d_backprop_filter conv_transpose
        ctc_beam_search_decoder_v2=nn.ctc_beam_search_decoder ctc_greedy_decoder ctc_unique_labels
        depthwise_conv2d_backprop_filter depthwise_conv2d_backprop_input
        depthwise_conv2d_native_backprop_filter=nn.depthwise_conv2d_backprop_filter
        depthwise_conv2d_native_backprop_input=nn.depthwise_conv2d_backprop_input elu
        fixed_unigram_candidate_sampler l2_loss l2_normalize learned_unigram_candidate_sampler
        local_response_normalization log_poisson_loss
        log_uniform_candidate_sampler=random.log_uniform_candidate_sampler lrn=nn.local_response_normalization
        max_pool1d max_pool2d max_pool3d max_pool_v2=nn.max_pool normalize_moments relu
        scale_regularization_loss selu softsign space_to_batch=compat.v1.space_to_batch swish=compat.v1.nn.silu
        top_k uniform_candidate_sampler=random.uniform_candidate_sampler with_space_to_batch zero_fraction
    """.split(),
    "nn.experimental": """
        general_dropout stateless_dropout
    """.split(),
    "quantization": """
        dequantize fake_quant_with_min_max_args fake_quant_with_min_max_args_gradient
        fake_quant_with_min_max_vars fake_quant_with_min_max_vars_gradient
        fake_quant_with_min_max_vars_per_channel fake_quant_with_min_max_vars_per_channel_gradient quantize
        quantize_and_dequantize quantize_and_dequantize_v2 quantized_concat
    """.split(),
    "ragged": """
        boolean_mask constant cross cross_hashed map_flat_values range row_splits_to_segment_ids
        segment_ids_to_row_splits stack stack_dynamic_partitions
    """.split(),
    "random": """
        Algorithm Generator all_candidate_sampler=nn.all_candidate_sampler categorical create_rng_state
        fixed_unigram_candidate_sampler=nn.fixed_unigram_candidate_sampler fold_in gamma get_global_generator
        get_seed=compat.v1.get_seed learned_unigram_candidate_sampler=nn.learned_unigram_candidate_sampler
        log_uniform_candidate_sampler multinomial=compat.v1.multinomial normal poisson=compat.v1.random_poisson
        set_global_generator set_random_seed=compat.v1.set_random_seed shuffle split stateless_binomial
        stateless_categorical stateless_gamma stateless_normal stateless_parameterized_truncated_normal
        stateless_poisson stateless_truncated_normal stateless_uniform truncated_normal uniform
        uniform_candidate_sampler
    """.split(),
    "random.experimental": """
        Algorithm=random.Algorithm Generator=random.Generator create_rng_state=random.create_rng_state
        get_global_generator=random.get_global_generator index_shuffle
        set_global_generator=random.set_global_generator stateless_fold_in=random.fold_in stateless_shuffle
        stateless_split=random.split
    """.split(),
    "saved_model": """
        ASSETS_DIRECTORY ASSETS_KEY Asset CLASSIFY_INPUTS CLASSIFY_METHOD_NAME CLASSIFY_OUTPUT_CLASSES
        CLASSIFY_OUTPUT_SCORES DEBUG_DIRECTORY DEBUG_INFO_FILENAME_PB DEFAULT_SERVING_SIGNATURE_DEF_KEY GPU
        PREDICT_INPUTS PREDICT_METHOD_NAME PREDICT_OUTPUTS REGRESS_INPUTS REGRESS_METHOD_NAME REGRESS_OUTPUTS
        SAVED_MODEL_FILENAME_PB SAVED_MODEL_FILENAME_PBTXT SAVED_MODEL_SCHEMA_VERSION SERVING SaveOptions TPU
        TRAINING VARIABLES_DIRECTORY VARIABLES_FILENAME load_v2=saved_model.load save
    """.split(),
    "sets": """
        difference intersection set_difference=sets.difference set_intersection=sets.intersection
        set_size=sets.size set_union=sets.union size union
    """.split(),
    "signal": """
        dct fft fft2d fft3d fftnd fftshift frame hamming_window hann_window idct ifft ifft2d ifft3d ifftnd
        ifftshift inverse_mdct inverse_stft inverse_stft_window_fn irfft irfft2d irfft3d irfftnd
        kaiser_bessel_derived_window kaiser_window linear_to_mel_weight_matrix mdct
        mfccs_from_log_mel_spectrograms overlap_and_add rfft rfft2d rfft3d rfftnd stft vorbis_window
    """.split(),
    "sparse": """
        SparseConditionalAccumulator=compat.v1.SparseConditionalAccumulator SparseTensor=SparseTensor
        add=compat.v1.sparse_add bincount concat=compat.v1.sparse_concat cross cross_hashed expand_dims eye
        fill_empty_rows from_dense mask matmul=sparse.sparse_dense_matmul maximum merge=compat.v1.sparse_merge
        minimum placeholder=compat.v1.sparse_placeholder reduce_max=compat.v1.sparse_reduce_max
        reduce_max_sparse=compat.v1.sparse_reduce_max_sparse reduce_sum=compat.v1.sparse_reduce_sum
        reduce_sum_sparse=compat.v1.sparse_reduce_sum_sparse reorder reset_shape reshape retain
        segment_mean=compat.v1.sparse_segment_mean segment_sqrt_n=compat.v1.sparse_segment_sqrt_n
        segment_sum=compat.v1.sparse_segment_sum slice softmax sparse_dense_matmul split=compat.v1.sparse_split
        to_dense to_indicator transpose
    """.split(),
    "spectral": """
        dct=signal.dct fft=signal.fft fft2d=signal.fft2d fft3d=signal.fft3d idct=signal.idct ifft=signal.ifft
        ifft2d=signal.ifft2d ifft3d=signal.ifft3d irfft=signal.irfft irfft2d=signal.irfft2d
        irfft3d=signal.irfft3d rfft=signal.rfft rfft2d=signal.rfft2d rfft3d=signal.rfft3d
    """.split(),
    "strings": """
        as_string=as_string bytes_split format join lower ngrams reduce_join=compat.v1.reduce_join
        regex_full_match regex_replace strip to_hash_bucket=compat.v1.string_to_hash_bucket to_hash_bucket_fast
        to_hash_bucket_strong to_number=compat.v1.string_to_number unicode_decode unicode_decode_with_offsets
        unicode_encode unicode_script unicode_split unicode_split_with_offsets unicode_transcode
        unsorted_segment_join upper
    """.split(),
    "summary": """
        Event=compat.v1.Event SessionLog=compat.v1.SessionLog Summary=compat.v1.Summary
    """.split(),
    "test": """
        Benchmark TestCase benchmark_config create_local_cluster disable_with_predicate gpu_device_name
        is_built_with_cuda is_built_with_gpu_support is_built_with_rocm is_built_with_xla
        is_cpu_target_available is_gpu_available main with_eager_op_as_function
    """.split(),
    "test.experimental": """
        sync_devices
    """.split(),
    "train": """
        BytesList CheckpointManager CheckpointOptions ClusterDef ClusterSpec Coordinator Example
        ExponentialMovingAverage Feature FeatureList FeatureLists Features FloatList Int64List JobDef
        SequenceExample Server=distribute.Server ServerDef checkpoints_iterator get_checkpoint_state
        latest_checkpoint list_variables load_checkpoint load_variable
        match_filenames_once=io.match_filenames_once piecewise_constant_decay=compat.v1.train.piecewise_constant
        write_graph=io.write_graph
    """.split(),
    "train.experimental": """
        DynamicLossScale=compat.v1.mixed_precision.DynamicLossScale
        FixedLossScale=compat.v1.mixed_precision.FixedLossScale LossScale=compat.v1.mixed_precision.LossScale
        MaxShardSizePolicy
        MixedPrecisionLossScaleOptimizer=compat.v1.mixed_precision.MixedPrecisionLossScaleOptimizer PythonState
        ShardByTaskPolicy ShardableTensor ShardingCallback
        disable_mixed_precision_graph_rewrite=compat.v1.mixed_precision.disable_mixed_precision_graph_rewrite
        enable_mixed_precision_graph_rewrite=compat.v1.mixed_precision.enable_mixed_precision_graph_rewrite
    """.split(),
}

SAME_SIGNATURE = {
    "": """
        case executing_eagerly foldl foldr map_fn scalar_mul scan variable_creator_scope
    """.split(),
    "data.experimental": """
        Counter choose_from_datasets make_batched_features_dataset make_csv_dataset sample_from_datasets
    """.split(),
    "debugging": """
        assert_shapes check_numerics
    """.split(),
    "image": """
        extract_image_patches=compat.v1.extract_image_patches extract_patches
    """.split(),
    "linalg": """
        diag diag_part matmul matrix_transpose tensor_diag_part trace
    """.split(),
    "manip": """
        reshape=compat.v1.reshape
    """.split(),
    "math": """
        abs acos acosh add angle asin asinh atan atanh bessel_i0 bessel_i0e bessel_i1 bessel_i1e ceil conj cos
        cosh digamma divide divide_no_nan erf erfc erfcinv erfinv exp expm1 floor floormod imag lgamma log log1p
        log_sigmoid maximum minimum multiply multiply_no_nan ndtri negative real reciprocal reciprocal_no_nan
        reduce_euclidean_norm reduce_max=compat.v1.reduce_max reduce_mean=compat.v1.reduce_mean
        reduce_min=compat.v1.reduce_min reduce_prod=compat.v1.reduce_prod reduce_std
        reduce_sum=compat.v1.reduce_sum reduce_variance rint round rsqrt scalar_mul sign sin sinh sqrt square
        tan
    """.split(),
    "nn": """
        depth_to_space=compat.v1.depth_to_space leaky_relu relu6 sigmoid sigmoid_cross_entropy_with_logits silu
        softplus space_to_depth=compat.v1.space_to_depth tanh
    """.split(),
    "quantization.experimental": """
        quantize_saved_model
    """.split(),
    "saved_model": """
        contains_saved_model
    """.split(),
    "strings": """
        substr=compat.v1.substr
    """.split(),
}
