"""The cluster resolvers that ask a cloud service where the tasks are: KubernetesClusterResolver (the running
pods matching label selectors, through the `kubernetes` client) and GCEClusterResolver (the instances of a
Compute Engine instance group, through `googleapiclient`). Neither service exists on this machine; as in TF,
each takes an injected client (`override_client=` / `service=`: how TF's own tests drive them) and otherwise
imports the real client library, raising TF's ImportError when it is not installed."""

from __future__ import annotations

import enum

from tinytf.train.cluster_spec import ClusterSpec

from .cluster_resolver import ClusterResolver, _format_master


class KubernetesExecutableLocation(enum.Enum):
    """Where the program runs: WITHIN_CLUSTER (a pod: in-cluster config) or OFF_CLUSTER (a kube config file)."""

    WITHIN_CLUSTER = 0
    OFF_CLUSTER = 1


_K8S_MISSING = ("The Kubernetes Python client must be installed before using the Kubernetes Cluster Resolver. "
                "To install the Kubernetes Python client, run `pip install kubernetes` on your command line.")


class KubernetesClusterResolver(ClusterResolver):
    """KubernetesClusterResolver(job_to_label_mapping=None, tf_server_port=8470, rpc_layer='grpc',
    override_client=None, executable_location=WITHIN_CLUSTER): job -> the host IPs (with tf_server_port) of
    the running pods of each label selector, pods sorted by name; asked again at every cluster_spec()."""

    def __init__(self, job_to_label_mapping=None, tf_server_port=8470, rpc_layer="grpc", override_client=None,
                 executable_location=KubernetesExecutableLocation.WITHIN_CLUSTER):
        try:
            from kubernetes import config as k8sconfig
        except ImportError:
            if not override_client:
                raise ImportError(_K8S_MISSING) from None
        else:
            if not override_client:
                if executable_location == KubernetesExecutableLocation.OFF_CLUSTER:
                    k8sconfig.load_kube_config()
                elif executable_location == KubernetesExecutableLocation.WITHIN_CLUSTER:
                    k8sconfig.load_incluster_config()
                else:
                    raise ValueError("The executable location provided is invalid.")
        self._job_to_label_mapping = job_to_label_mapping or {"worker": ["job-name=tensorflow"]}
        self._tf_server_port = tf_server_port
        self._override_client = override_client
        self.task_type = None
        self.task_id = None
        self.rpc_layer = rpc_layer

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        if task_type is not None and task_id is not None:
            return _format_master(self.cluster_spec().task_address(task_type, task_id), rpc_layer or self.rpc_layer)
        return ""

    def cluster_spec(self):
        """Raises RuntimeError naming a matching pod that is not in the Running phase."""
        client = self._override_client
        if not client:
            from kubernetes import client as k8sclient
            from kubernetes import config as k8sconfig

            k8sconfig.load_kube_config()
            client = k8sclient.CoreV1Api()
        cluster = {}
        for job, selectors in self._job_to_label_mapping.items():
            addresses = []
            for selector in selectors:
                pods = client.list_pod_for_all_namespaces(label_selector=selector)
                for pod in sorted(pods.items, key=lambda p: p.metadata.name):
                    if pod.status.phase != "Running":
                        raise RuntimeError(f'Pod "{pod.metadata.name}" is not running; phase: "{pod.status.phase}"')
                    addresses.append(f"{pod.status.host_ip}:{self._tf_server_port}")
            cluster[job] = addresses
        return ClusterSpec(cluster)


class GCEClusterResolver(ClusterResolver):
    """GCEClusterResolver(project, zone, instance_group, port, task_type='worker', task_id=0, rpc_layer='grpc',
    credentials='default', service=None): one job, task_type, of the running instances' internal IPs (sorted
    as text) with `port`, read page by page from the Compute API at every cluster_spec()."""

    def __init__(self, project, zone, instance_group, port, task_type="worker", task_id=0, rpc_layer="grpc",
                 credentials="default", service=None):
        self._project, self._zone, self._instance_group, self._port = project, zone, instance_group, port
        self._task_type, self._task_id, self._rpc_layer = task_type, task_id, rpc_layer
        self._credentials = credentials
        if service is None:
            try:
                from googleapiclient import discovery
                from oauth2client.client import GoogleCredentials
            except ImportError:
                raise ImportError("googleapiclient must be installed before using the GCE cluster resolver") from None
            if credentials == "default":
                self._credentials = GoogleCredentials.get_application_default()
            service = discovery.build("compute", "v1", credentials=self._credentials)
        self._service = service

    def cluster_spec(self):
        groups = self._service.instanceGroups()
        request = groups.listInstances(project=self._project, zone=self._zone, instanceGroups=self._instance_group,
                                       body={"instanceState": "RUNNING"}, orderBy="name")
        workers = []
        while request is not None:
            response = request.execute()
            for instance in response["items"]:
                name = instance["instance"].split("/")[-1]
                details = self._service.instances().get(project=self._project, zone=self._zone, instance=name)
                if details is not None:
                    ip = details.execute()["networkInterfaces"][0]["networkIP"]
                    workers.append(f"{ip}:{self._port}")
            request = groups.listInstances_next(previous_request=request, previous_response=response)
        return ClusterSpec({self._task_type: sorted(workers)})

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        task_type = task_type if task_type is not None else self._task_type
        task_id = task_id if task_id is not None else self._task_id
        if task_type is not None and task_id is not None:
            return _format_master(self.cluster_spec().task_address(task_type, task_id), rpc_layer or self._rpc_layer)
        return ""

    @property
    def task_type(self):
        return self._task_type

    @task_type.setter
    def task_type(self, task_type):
        raise RuntimeError("You cannot reset the task_type of the GCEClusterResolver after it has been created.")

    @property
    def task_id(self):
        return self._task_id

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        return self._rpc_layer

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer
