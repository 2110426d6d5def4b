import { PassThrough, Writable } from 'node:stream';
import {
  ApiException,
  CoreV1Api,
  type CoreV1Event,
  Exec,
  KubeConfig,
  Log,
  Metrics,
  type V1Pod,
  type V1Status,
  Watch,
} from '@kubernetes/client-node';
import {
  type ClusterClient,
  ClusterError,
  cpuMillicores,
  type EventRow,
  memoryBytes,
  type PodRow,
  type PodState,
} from './client.ts';

/** Lines of a stream, split on \n, the last partial line kept until it completes or the stream ends. */
function lineSink(onLines: (lines: string[]) => void): Writable {
  let rest = '';
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const text = rest + chunk.toString('utf8');
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      if (lines.length > 0) onLines(lines);
      callback();
    },
    final(callback) {
      if (rest !== '') onLines([rest]);
      rest = '';
      callback();
    },
  });
}

/** The API server's answer as a ClusterError: its status and its Status message; 502 when there was none. */
function clusterError(error: unknown): ClusterError {
  if (error instanceof ClusterError) return error;
  if (error instanceof ApiException) {
    const body = error.body as unknown;
    let message: string | undefined;
    if (typeof body === 'string') {
      try {
        message = JSON.parse(body).message;
      } catch {
        message = body || undefined;
      }
    } else if (body && typeof body === 'object') message = (body as { message?: string }).message;
    // client-node reports an unreachable server as a 500 with no body.
    if (error.code === 500 && !message) return new ClusterError(502, 'the cluster did not answer');
    return new ClusterError(error.code, message ?? `the cluster answered ${error.code}`);
  }
  const code = (error as { statusCode?: number }).statusCode;
  if (typeof code === 'number') return new ClusterError(code, `the cluster answered ${code}`);
  return new ClusterError(502, `the cluster did not answer: ${(error as Error).message ?? String(error)}`);
}

const isoOf = (d: Date | string | undefined) => (d ? new Date(d).toISOString() : null);

function podState(pod: V1Pod): PodState {
  return {
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    phase: pod.status?.phase ?? 'Pending',
    containers: (pod.spec?.containers ?? []).map((c) => c.name),
    resourceVersion: pod.metadata?.resourceVersion ?? '',
  };
}

/** An exec's failure to start the executable at all (the image lacks it), as opposed to the command failing. */
const executableMissing = (status: V1Status) =>
  status.status === 'Failure' && /executable file not found|no such file or directory/i.test(status.message ?? '');

function exitOf(status: V1Status): number {
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  return cause ? Number(cause.message) : 1;
}

/** The cluster client over @kubernetes/client-node, from a kubeconfig file's current context. */
export function kubernetesClient(kubeconfigPath: string): ClusterClient {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfigPath);
  return kubernetesClientFrom(config);
}

export function kubernetesClientFrom(config: KubeConfig): ClusterClient {
  const core = config.makeApiClient(CoreV1Api);
  const metrics = new Metrics(config);

  const usage = async () => {
    const byPod = new Map<string, { cpu: number; memory: number }>();
    try {
      const list = await metrics.getPodMetrics();
      for (const item of list.items) {
        const total = { cpu: 0, memory: 0 };
        for (const c of item.containers) {
          total.cpu += cpuMillicores(c.usage.cpu);
          total.memory += memoryBytes(c.usage.memory);
        }
        byPod.set(`${item.metadata.namespace}/${item.metadata.name}`, total);
      }
    } catch {
      // A cluster without metrics-server still lists its pods; usage is then unknown (null).
    }
    return byPod;
  };

  return {
    async listPods() {
      try {
        const [pods, used] = await Promise.all([core.listPodForAllNamespaces(), usage()]);
        return pods.items.map((pod): PodRow => {
          const namespace = pod.metadata?.namespace ?? '';
          const name = pod.metadata?.name ?? '';
          const statuses = pod.status?.containerStatuses ?? [];
          const containers = (pod.spec?.containers ?? []).map((c) => c.name);
          const u = used.get(`${namespace}/${name}`);
          return {
            namespace,
            name,
            phase: pod.status?.phase ?? 'Pending',
            node: pod.spec?.nodeName ?? null,
            ready: `${statuses.filter((s) => s.ready).length}/${containers.length}`,
            restarts: statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0),
            containers,
            labels: pod.metadata?.labels ?? {},
            created_at: isoOf(pod.metadata?.creationTimestamp),
            cpu_millicores: u ? Math.round(u.cpu * 10) / 10 : null,
            memory_bytes: u ? u.memory : null,
          };
        });
      } catch (error) {
        throw clusterError(error);
      }
    },

    async listEvents() {
      try {
        const events = await core.listEventForAllNamespaces();
        const rows = events.items.map(
          (e: CoreV1Event): EventRow => ({
            namespace: e.metadata?.namespace ?? '',
            name: e.metadata?.name ?? '',
            type: e.type ?? 'Normal',
            reason: e.reason ?? '',
            message: e.message ?? '',
            object: {
              kind: e.involvedObject?.kind ?? '',
              name: e.involvedObject?.name ?? '',
              namespace: e.involvedObject?.namespace ?? null,
            },
            count: e.count ?? 1,
            first_seen: isoOf(e.firstTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp),
            last_seen: isoOf(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp),
          }),
        );
        // Newest first, as an operator reads them.
        return rows.sort((a, b) => (b.last_seen ?? '').localeCompare(a.last_seen ?? ''));
      } catch (error) {
        throw clusterError(error);
      }
    },

    async listPodsIn(namespace, selector) {
      try {
        const list = await core.listNamespacedPod({ namespace, labelSelector: selector || undefined });
        return list.items.map(podState);
      } catch (error) {
        throw clusterError(error);
      }
    },

    async readPod(namespace, name) {
      try {
        return podState(await core.readNamespacedPod({ namespace, name }));
      } catch (error) {
        throw clusterError(error);
      }
    },

    async readLog(namespace, pod, options) {
      try {
        return await core.readNamespacedPodLog({
          namespace,
          name: pod,
          container: options.container,
          tailLines: options.tailLines,
          sinceSeconds: options.sinceSeconds,
          timestamps: options.timestamps,
        });
      } catch (error) {
        throw clusterError(error);
      }
    },

    async followLog(namespace, pod, options, onLines, signal) {
      if (signal.aborted) return;
      const sink = lineSink(onLines);
      const ended = new Promise<void>((resolve) => {
        sink.on('finish', resolve);
        sink.on('close', resolve);
        sink.on('error', () => resolve());
      });
      let controller: AbortController;
      try {
        controller = await new Log(config).log(namespace, pod, options.container, sink, {
          follow: true,
          tailLines: options.tailLines,
          sinceSeconds: options.sinceSeconds,
          timestamps: options.timestamps,
        });
      } catch (error) {
        throw clusterError(error);
      }
      const stop = () => {
        controller.abort();
        sink.destroy();
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
      await ended;
      signal.removeEventListener('abort', stop);
    },

    async watchPods(namespace, selector, onChange, signal) {
      const watch = new Watch(config);
      let resourceVersion: string | undefined;
      let failures = 0;
      while (!signal.aborted) {
        const started = Date.now();
        let events = 0;
        const done = await new Promise<unknown>((resolve) => {
          let controller: AbortController | undefined;
          const stop = () => controller?.abort();
          signal.addEventListener('abort', stop, { once: true });
          watch
            .watch(
              `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`,
              { labelSelector: selector || undefined, resourceVersion, allowWatchBookmarks: false },
              (type: string, object: V1Pod) => {
                events += 1;
                if (type === 'ERROR') {
                  // 410 Gone: the resourceVersion is too old; the next watch starts from the current state.
                  if ((object as { code?: number }).code === 410) resourceVersion = undefined;
                  return;
                }
                const state = podState(object);
                resourceVersion = state.resourceVersion || resourceVersion;
                const change = type === 'ADDED' ? 'added' : type === 'DELETED' ? 'deleted' : 'modified';
                onChange(change, state);
              },
              (error: unknown) => {
                signal.removeEventListener('abort', stop);
                resolve(error);
              },
            )
            .then((c) => {
              controller = c;
              if (signal.aborted) c.abort();
            })
            .catch((error: unknown) => resolve(error));
        });
        if (signal.aborted) return;
        // The server ends a watch when its time is up (node-fetch may report that as "Premature
        // close"): a new watch continues from the last resourceVersion seen. An answer with a
        // status ends the tail, as do three watches in a row failing at once with nothing sent.
        const status = (done as { statusCode?: number } | null)?.statusCode;
        if (status === 410) resourceVersion = undefined;
        else if (status !== undefined) throw clusterError(done);
        const failedAtOnce = done !== null && events === 0 && Date.now() - started < 1000;
        failures = failedAtOnce ? failures + 1 : 0;
        if (failures >= 3) throw clusterError(done);
      }
    },

    async exec(namespace, pod, container, candidates, io, onStart) {
      const target = container ?? (await this.readPod(namespace, pod)).containers[0];
      const execApi = new Exec(config);
      for (const [index, command] of candidates.entries()) {
        const { stdin, stdout } = io();
        let wrote = false;
        const out = new PassThrough();
        out.on('data', (chunk: Buffer) => {
          wrote = true;
          stdout.write(chunk);
        });
        const result = await new Promise<{ status?: V1Status; error?: unknown }>((resolve) => {
          execApi
            .exec(namespace, pod, target, command, out, out, stdin, true, (status) => resolve({ status }))
            .then((ws) => {
              ws.on('close', () => resolve({}));
              onStart?.({
                command,
                resize: ({ cols, rows }) => {
                  // Channel 4 carries the terminal size as JSON, as kubectl sends it.
                  const size = Buffer.from(JSON.stringify({ Width: cols, Height: rows }));
                  if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([4]), size]));
                },
                close: () => ws.close(),
              });
            })
            .catch((error: unknown) => resolve({ error }));
        });
        if (result.error) throw clusterError(result.error);
        const missing = result.status !== undefined && executableMissing(result.status);
        if (missing && !wrote && index < candidates.length - 1) continue;
        if (!result.status) return { command, exitCode: null };
        return { command, exitCode: missing ? 127 : exitOf(result.status), message: result.status.message };
      }
      throw new ClusterError(422, 'no command to run');
    },
  };
}
