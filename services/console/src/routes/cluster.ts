import websocket from '@fastify/websocket';
import { AppError, Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ClusterClient, ClusterError } from '../cluster/client.ts';
import { kubernetesClient } from '../cluster/kubernetes.ts';
import { type TailSink, tailNamespace, tailPod } from '../cluster/tail.ts';
import { type BrowserSocket, bridgeTerminal } from '../cluster/terminal.ts';
import { requires } from '../domain/roles.ts';
import {
  EventRow,
  ExecQuery,
  LogQuery,
  NamespaceParams,
  NamespaceTailQuery,
  PodLogs,
  PodParams,
  PodRow,
  PodTailQuery,
} from '../schemas/cluster.ts';
import { P, ScopeParams } from '../schemas/common.ts';
import { logWrite } from '../writes.ts';
import type { RawRouteModule, RouteDeps, Routes } from './deps.ts';
import { route } from './deps.ts';

const tags = ['cluster'];

const clients = new WeakMap<RouteDeps, Map<string, ClusterClient>>();

/** The subscription's cluster client, from its kubeconfig path; 501 cluster_not_configured when the variable is unset. */
export function clusterOf(deps: RouteDeps, region: string, subscription: string): ClusterClient {
  const scope = deps.registry.resolve(region, subscription);
  if (!scope.kubeconfig) {
    throw new AppError(
      501,
      'cluster_not_configured',
      `The cluster of ${scope.key} is not configured (its kubeconfig variable is unset)`,
    );
  }
  const byPath = clients.get(deps) ?? new Map<string, ClusterClient>();
  clients.set(deps, byPath);
  let client = byPath.get(scope.kubeconfig);
  if (!client) {
    try {
      client = (deps.cluster ?? kubernetesClient)(scope.kubeconfig);
    } catch (error) {
      throw new AppError(
        502,
        'cluster_unavailable',
        `The kubeconfig of ${scope.key} cannot be read: ${(error as Error).message}`,
      );
    }
    byPath.set(scope.kubeconfig, client);
  }
  return client;
}

/** The API server's refusal as the console's error: its 404 and 400 say what was wrong, anything else is 502. */
export function clusterFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ClusterError) {
    if (error.status === 404) return new AppError(404, 'pod_not_found', error.message);
    if (error.status === 400) return new AppError(422, 'cluster_refused', error.message);
    if (error.status === 401 || error.status === 403)
      return new AppError(
        502,
        'cluster_unavailable',
        `The cluster refused the console's credentials (${error.status})`,
      );
    return new AppError(502, 'cluster_unavailable', error.message);
  }
  return new AppError(502, 'cluster_unavailable', String(error));
}

const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw clusterFailure(error);
  }
};

/**
 * Opens a text/event-stream response (OPS-014). Comments every 15 s keep proxies from closing an
 * idle tail; a closed connection aborts the returned signal.
 */
function openEventStream(req: FastifyRequest, reply: FastifyReply) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': tail open\n\n');
  const abort = new AbortController();
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  keepAlive.unref();
  res.on('close', () => {
    clearInterval(keepAlive);
    abort.abort();
  });
  // Lines arrive in bursts (one chunk of the kubelet's stream holds many): the events written in
  // one tick leave in one socket write rather than one each.
  let corked = false;
  const write = (text: string) => {
    if (res.writableEnded) return;
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(() => {
        corked = false;
        res.uncork();
      });
    }
    res.write(text);
  };
  const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const sink: TailSink = {
    // One event per line (the page shows each as it comes), written together: the head of the
    // event is the same for every line of a container.
    lines: (pod, container, lines) => {
      const head = `event: line\ndata: {"pod":${JSON.stringify(pod)},"container":${JSON.stringify(container)},"line":`;
      let text = '';
      for (const line of lines) text += `${head}${JSON.stringify(line)}}\n\n`;
      write(text);
    },
    pod: (pod, container, state) => send('pod', { pod, container, state }),
    error: (error) => {
      const failure = clusterFailure(error);
      send('error', { code: failure.code, message: failure.message });
    },
  };
  const end = () => {
    clearInterval(keepAlive);
    if (!res.writableEnded) {
      send('end', {});
      res.end();
    }
  };
  req.log.debug({ event: 'console.tail' }, 'tail opened');
  return { signal: abort.signal, sink, end };
}

const READ_ERRORS = ['scope_not_found', 'cluster_not_configured', 'cluster_unavailable'] as const;
const POD_ERRORS = [...READ_ERRORS, 'pod_not_found', 'cluster_refused'] as const;

/**
 * Pods, events and logs cluster-wide for a viewer (OPS-050), and the two live tails (SSE, the
 * token in ?access_token, outside the OpenAPI: OPS-014, OPS-016, OPS-017).
 */
export const CLUSTER_ROUTES: Routes = [
  route({
    method: 'GET',
    url: `${P}/pods`,
    role: 'viewer',
    tags,
    summary: 'Every pod of the cluster, all namespaces, with current CPU and memory from metrics.k8s.io',
    params: ScopeParams,
    response: Envelope(Type.Array(PodRow)),
    errors: [...READ_ERRORS],
    handler: async ({ params, reply }, deps) => {
      const client = clusterOf(deps, params.region, params.subscription);
      return reply.envelope(await guarded(() => client.listPods()));
    },
  }),
  route({
    method: 'GET',
    url: `${P}/events`,
    role: 'viewer',
    tags,
    summary: "The cluster's events, all namespaces, newest first",
    params: ScopeParams,
    response: Envelope(Type.Array(EventRow)),
    errors: [...READ_ERRORS],
    handler: async ({ params, reply }, deps) => {
      const client = clusterOf(deps, params.region, params.subscription);
      return reply.envelope(await guarded(() => client.listEvents()));
    },
  }),
  route({
    method: 'GET',
    url: `${P}/pods/:namespace/:pod/logs`,
    role: 'viewer',
    tags,
    summary: "A container's recent log lines (the pod's first container unless one is named)",
    params: PodParams,
    query: LogQuery,
    response: Envelope(PodLogs),
    errors: [...POD_ERRORS],
    handler: async ({ params, query, reply }, deps) => {
      const client = clusterOf(deps, params.region, params.subscription);
      const pod = await guarded(() => client.readPod(params.namespace, params.pod));
      const container = query.container ?? pod.containers[0];
      const text = await guarded(() =>
        client.readLog(params.namespace, params.pod, {
          container,
          tailLines: query.tail_lines ?? 500,
          sinceSeconds: query.since_seconds,
          timestamps: query.timestamps,
        }),
      );
      const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
      return reply.envelope({ namespace: params.namespace, pod: params.pod, container, lines });
    },
  }),
  route({
    method: 'GET',
    url: `${P}/pods/:namespace/:pod/logs/tail`,
    role: 'viewer',
    queryToken: true,
    hidden: true,
    tags,
    summary: "A pod's log as server-sent events (line, pod, error, end), until the pod goes",
    params: PodParams,
    query: PodTailQuery,
    response: Type.String(),
    errors: [...POD_ERRORS],
    handler: async ({ params, query, req, reply }, deps) => {
      const client = clusterOf(deps, params.region, params.subscription);
      // Checked before the stream opens, so an absent pod or container is a plain 404 or 422.
      const pod = await guarded(() => client.readPod(params.namespace, params.pod));
      if (query.container && !pod.containers.includes(query.container)) {
        throw new AppError(422, 'cluster_refused', `container ${query.container} is not valid for pod ${pod.name}`);
      }
      const stream = openEventStream(req, reply);
      await tailPod(client, pod, query.container, query.tail_lines ?? 100, stream.sink, stream.signal);
      stream.end();
      return reply;
    },
  }),
  route({
    method: 'GET',
    url: `${P}/namespaces/:namespace/logs/tail`,
    role: 'viewer',
    queryToken: true,
    hidden: true,
    tags,
    summary:
      "The logs of a namespace's pods matching a label selector as server-sent events, tagged by pod, following pods as they come and go",
    params: NamespaceParams,
    query: NamespaceTailQuery,
    response: Type.String(),
    errors: [...READ_ERRORS, 'cluster_refused'],
    handler: async ({ params, query, req, reply }, deps) => {
      const client = clusterOf(deps, params.region, params.subscription);
      const selector = query.selector ?? '';
      // The first list checks the selector (the API server's 400) before the stream opens and
      // names the pods already running, which start at their last lines.
      const existing = await guarded(() => client.listPodsIn(params.namespace, selector));
      const stream = openEventStream(req, reply);
      await tailNamespace(
        client,
        params.namespace,
        selector,
        query.tail_lines ?? 100,
        stream.sink,
        stream.signal,
        new Set(existing.map((p) => p.name)),
      ).catch((error: unknown) =>
        stream.sink.error(error instanceof ClusterError ? error : new ClusterError(502, String(error))),
      );
      stream.end();
      return reply;
    },
  }),
];

/**
 * The terminal (OPS-015, OPS-056): a WebSocket on GET .../pods/{namespace}/{pod}/exec, admin only,
 * the token in ?access_token, hidden from the OpenAPI. Everything that can refuse (token, role,
 * scope, pod) runs as hooks before the upgrade, so a refusal is a plain HTTP answer and the cluster
 * sees no exec.
 */
export const TERMINAL_ROUTE: RawRouteModule = async (app, deps) => {
  await app.register(websocket);
  app.route({
    method: 'GET',
    url: `${P}/pods/:namespace/:pod/exec`,
    config: { queryToken: true } as never,
    schema: { hide: true, params: PodParams, querystring: ExecQuery },
    preValidation: [
      requires('admin'),
      async (req: FastifyRequest) => {
        const params = req.params as { region: string; subscription: string; namespace: string; pod: string };
        const client = clusterOf(deps, params.region, params.subscription);
        await guarded(() => client.readPod(params.namespace, params.pod));
      },
    ],
    // A refused upgrade (401 from the authenticator, 403, 501, 404) is answered on the raw socket;
    // it is dropped once answered, as @fastify/websocket only does for requests its own hook saw.
    onResponse: async (req: FastifyRequest) => {
      if ((req.headers.upgrade ?? '').toLowerCase() === 'websocket') req.raw.socket?.destroy();
    },
    handler: async () => {
      throw new AppError(400, 'bad_request', 'The terminal is a WebSocket: connect with Upgrade: websocket');
    },
    wsHandler: async (socket: BrowserSocket, req: FastifyRequest) => {
      const params = req.params as { region: string; subscription: string; namespace: string; pod: string };
      const query = req.query as { container?: string };
      // A terminal can change anything in the container: logged as a write before the exec starts (OPS-060).
      logWrite(req, {
        action: 'pod.exec',
        target: `${params.region}/${params.subscription}/${params.namespace}/${params.pod}${query.container ? `/${query.container}` : ''}`,
      });
      await bridgeTerminal(socket, clusterOf(deps, params.region, params.subscription), {
        namespace: params.namespace,
        pod: params.pod,
        container: query.container,
      });
    },
  } as never);
};
