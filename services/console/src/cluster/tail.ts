import { type ClusterClient, ClusterError, type PodState } from './client.ts';

export interface TailSink {
  /** Lines of one container, in order, as they arrived together. */
  lines(pod: string, container: string, lines: string[]): void;
  pod(pod: string, container: string, state: 'following' | 'ended'): void;
  error(error: ClusterError): void;
}

/**
 * Follows containers' logs into one sink, tagged by pod and container. A container is followed
 * once while its pod lives; a pod that goes and comes back under the same name is followed again.
 */
class Followers {
  private readonly open = new Map<string, AbortController>();
  private readonly done = new Set<string>();

  constructor(
    private readonly client: ClusterClient,
    private readonly namespace: string,
    private readonly sink: TailSink,
    private readonly signal: AbortSignal,
  ) {}

  get count(): number {
    return this.open.size;
  }

  /** Starts following every container of a running pod not yet followed; `tailLines` undefined reads from its first line. */
  start(pod: PodState, containers: string[], tailLines: number | undefined, onEnd?: () => void): void {
    for (const container of containers) {
      const key = `${pod.name}/${container}`;
      if (this.open.has(key) || this.done.has(key) || this.signal.aborted) continue;
      const stop = new AbortController();
      const abort = () => stop.abort();
      this.signal.addEventListener('abort', abort, { once: true });
      this.open.set(key, stop);
      this.sink.pod(pod.name, container, 'following');
      this.client
        .followLog(
          this.namespace,
          pod.name,
          { container, tailLines },
          (lines) => this.sink.lines(pod.name, container, lines),
          stop.signal,
        )
        .catch((error: unknown) => {
          if (!stop.signal.aborted)
            this.sink.error(error instanceof ClusterError ? error : new ClusterError(502, String(error)));
        })
        .finally(() => {
          this.signal.removeEventListener('abort', abort);
          this.open.delete(key);
          this.done.add(key);
          if (!this.signal.aborted) this.sink.pod(pod.name, container, 'ended');
          onEnd?.();
        });
    }
  }

  /** The pod is gone: stop its follows and let a pod of the same name be followed afresh. */
  forget(pod: string): void {
    for (const [key, stop] of this.open) if (key.startsWith(`${pod}/`)) stop.abort();
    for (const key of [...this.done]) if (key.startsWith(`${pod}/`)) this.done.delete(key);
  }
}

/**
 * A namespace tail: the pods matching `selector`, followed as they start and dropped as they go.
 * Pods running when the tail opens start at their last `tailLines` lines; pods that start later
 * are read from their first line. Resolves when signal aborts.
 */
export async function tailNamespace(
  client: ClusterClient,
  namespace: string,
  selector: string,
  tailLines: number,
  sink: TailSink,
  signal: AbortSignal,
  existing: ReadonlySet<string>,
): Promise<void> {
  const followers = new Followers(client, namespace, sink, signal);
  await client.watchPods(
    namespace,
    selector,
    (change, pod) => {
      if (change === 'deleted') {
        followers.forget(pod.name);
        return;
      }
      if (pod.phase !== 'Running') return;
      followers.start(pod, pod.containers, existing.has(pod.name) ? tailLines : undefined);
    },
    signal,
  );
}

/** A pod tail: its containers (or the one named), from the last `tailLines` lines, until the pod goes or signal aborts. */
export async function tailPod(
  client: ClusterClient,
  pod: PodState,
  container: string | undefined,
  tailLines: number,
  sink: TailSink,
  signal: AbortSignal,
): Promise<void> {
  const containers = container ? [container] : pod.containers;
  await new Promise<void>((resolve) => {
    let left = containers.length;
    const followers = new Followers(client, pod.namespace, sink, signal);
    followers.start(pod, containers, tailLines, () => {
      left -= 1;
      if (left === 0) resolve();
    });
    if (left === 0) resolve();
  });
}
