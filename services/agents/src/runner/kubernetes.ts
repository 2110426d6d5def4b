import { createHash } from 'node:crypto';
import {
  ApiException,
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Deployment,
  type V1EnvVar,
  type V1Job,
  type V1PodTemplateSpec,
  type V1Secret,
} from '@kubernetes/client-node';
import type { ObservedWorkload, Runner, Workload, WorkloadKind } from './port.ts';

/**
 * The kubernetes runner adapter (ARCHITECTURE.md, "Outside systems, runners and schedules"): an
 * always-on agent is a one-replica Deployment whose pod template carries the agent's generation
 * (a bump changes the template, so Kubernetes replaces the pod), an ephemeral agent is one Job per
 * generation that runs until the agent's ttl_at. Each agent has one Secret holding the service
 * token its harness calls the agents service with. Everything is found again by label, never by
 * name alone: remove() gets only an agent id, and a slug may change between applies.
 */

export const LABEL_AGENT_ID = 'platform.agents/agent-id';
export const LABEL_GENERATION = 'platform.agents/generation';
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'platform-agents';

/** The Secret's key the harness's SERVICE_TOKEN comes from. */
export const SECRET_TOKEN_KEY = 'service-token';

/** What the harness container is told; the token arrives from the agent's Secret. */
export const HARNESS_ENV = {
  agentId: 'AGENT_ID',
  slug: 'AGENT_SLUG',
  generation: 'AGENT_GENERATION',
  harnessId: 'HARNESS_ID',
  agentsUrl: 'AGENTS_URL',
  brokerUrl: 'BROKER_URL',
  serviceToken: 'SERVICE_TOKEN',
} as const;

const CONTAINER = 'harness';

export interface KubernetesRunnerOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  /** Image per harness id. */
  images: Readonly<Record<string, string>>;
  /** The agents service as the harness reaches it from inside the cluster. */
  agentsUrl: string;
  /** The shared service token the harness uses on inbox, runs, logs and tool routes. */
  serviceToken: string;
  brokerUrl: string;
  now?: () => Date;
}

/**
 * A refused or failed cluster call, with the API server's Status reason when there was one.
 * `retryable` says whether the same call later could succeed (server trouble, a lost race), as
 * opposed to a request the cluster will keep refusing (Invalid, Forbidden, an unknown harness).
 */
export class KubernetesRunnerError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly reason: string | undefined,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'KubernetesRunnerError';
  }
}

interface StatusBody {
  reason?: string;
  message?: string;
}

function statusOf(error: unknown): { code: number; reason?: string; message?: string } | undefined {
  if (!(error instanceof ApiException)) return undefined;
  let body: StatusBody | undefined;
  // client-node 1.x hands the error body over as text.
  if (typeof error.body === 'string') {
    try {
      body = JSON.parse(error.body) as StatusBody;
    } catch {
      body = undefined;
    }
  } else if (error.body && typeof error.body === 'object') body = error.body as StatusBody;
  return { code: error.code, reason: body?.reason, message: body?.message };
}

const isReason = (error: unknown, reason: string) => statusOf(error)?.reason === reason;

function wrap(what: string, error: unknown): KubernetesRunnerError {
  if (error instanceof KubernetesRunnerError) return error;
  const status = statusOf(error);
  if (status) {
    const retryable = status.code >= 500 || status.code === 409 || status.code === 429;
    return new KubernetesRunnerError(
      `${what}: ${status.code}${status.reason ? ` ${status.reason}` : ''}${status.message ? `: ${status.message}` : ''}`,
      status.code,
      status.reason,
      retryable,
      { cause: error },
    );
  }
  // No answer at all (refused connection, reset, DNS): the cluster may answer next time.
  return new KubernetesRunnerError(
    `${what}: ${(error as Error)?.message ?? String(error)}`,
    undefined,
    undefined,
    true,
    {
      cause: error,
    },
  );
}

const MAX_NAME = 63;
const LABEL_VALUE = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

/**
 * A DNS-1123 label from the slug. Job names carry the generation and must stay within 63
 * characters (the API server puts the name in a label); when the slug had to be cut or cleaned, a
 * hash of the agent id keeps two agents from landing on one name.
 */
export function objectName(workload: Pick<Workload, 'agentId' | 'slug'>, suffix = ''): string {
  const clean = workload.slug
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const base = `agent-${clean || 'x'}`;
  const room = MAX_NAME - suffix.length;
  if (clean === workload.slug && base.length <= room) return `${base}${suffix}`;
  const hash = createHash('sha256').update(workload.agentId).digest('hex').slice(0, 8);
  const head = base.slice(0, room - hash.length - 1).replace(/-+$/, '');
  return `${head}-${hash}${suffix}`;
}

const jobSuffix = (generation: number) => `-g${generation}`;

/** `harness=image` pairs separated by commas (AGENTS_K8S_IMAGES). */
export function parseHarnessImages(text: string): Record<string, string> {
  const images: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const harness = pair.slice(0, at).trim();
    const image = pair.slice(at + 1).trim();
    if (at <= 0 || !harness || !image) throw new Error(`AGENTS_K8S_IMAGES: "${pair.trim()}" is not harness=image`);
    images[harness] = image;
  }
  return images;
}

function metadataGeneration(labels: Record<string, string> | undefined): number | undefined {
  const value = Number(labels?.[LABEL_GENERATION]);
  return Number.isInteger(value) ? value : undefined;
}

export class KubernetesRunner implements Runner {
  readonly name = 'kubernetes' as const;
  readonly namespace: string;
  private readonly apps: AppsV1Api;
  private readonly batch: BatchV1Api;
  private readonly core: CoreV1Api;
  private readonly now: () => Date;

  constructor(private readonly options: KubernetesRunnerOptions) {
    this.namespace = options.namespace;
    this.apps = options.kubeConfig.makeApiClient(AppsV1Api);
    this.batch = options.kubeConfig.makeApiClient(BatchV1Api);
    this.core = options.kubeConfig.makeApiClient(CoreV1Api);
    this.now = options.now ?? (() => new Date());
  }

  async apply(workload: Workload): Promise<void> {
    const image = this.options.images[workload.harnessId];
    if (!image) {
      const known = Object.keys(this.options.images);
      throw new KubernetesRunnerError(
        `no image for harness "${workload.harnessId}" (agent ${workload.agentId}): AGENTS_K8S_IMAGES names ${known.length ? known.join(', ') : 'none'}`,
        undefined,
        undefined,
        false,
      );
    }
    if (!LABEL_VALUE.test(workload.agentId)) {
      // It names every object by label; the API server would refuse it at the first list.
      throw new KubernetesRunnerError(
        `agent id "${workload.agentId}" is not a label value`,
        undefined,
        undefined,
        false,
      );
    }
    if (workload.kind === 'job' && !workload.ttlAt) {
      throw new KubernetesRunnerError(
        `agent ${workload.agentId}: a job workload needs ttlAt`,
        undefined,
        undefined,
        false,
      );
    }
    await this.applySecret(workload);
    if (workload.kind === 'deployment') {
      await this.deleteJobs(workload.agentId, () => true);
      await this.applyDeployment(workload, image);
    } else {
      await this.deleteDeployments(workload.agentId, () => true);
      const name = objectName(workload, jobSuffix(workload.generation));
      const remaining = await this.deleteJobs(workload.agentId, (job) => job.metadata?.name !== name);
      if (remaining.length === 0) await this.createJob(workload, image, name);
    }
  }

  async remove(agentId: string): Promise<void> {
    await this.deleteDeployments(agentId, () => true);
    await this.deleteJobs(agentId, () => true);
    for (const secret of await this.agentSecrets(agentId)) await this.deleteSecret(secret.metadata!.name!);
  }

  async list(): Promise<ObservedWorkload[]> {
    const labelSelector = `${LABEL_MANAGED_BY}=${MANAGED_BY}`;
    const [deployments, jobs] = await Promise.all([
      this.call('list deployments', () =>
        this.apps.listNamespacedDeployment({ namespace: this.namespace, labelSelector }),
      ),
      this.call('list jobs', () => this.batch.listNamespacedJob({ namespace: this.namespace, labelSelector })),
    ]);
    const observed: ObservedWorkload[] = [];
    const add = (kind: WorkloadKind, items: (V1Deployment | V1Job)[]) => {
      for (const item of items) {
        const labels = item.metadata?.labels;
        const agentId = labels?.[LABEL_AGENT_ID];
        const generation = metadataGeneration(labels);
        // An object on its way out (deletionTimestamp) no longer runs the agent's harness.
        if (!agentId || generation === undefined || item.metadata?.deletionTimestamp) continue;
        observed.push({ agentId, kind, generation, name: item.metadata!.name! });
      }
    };
    add('deployment', deployments.items);
    add('job', jobs.items);
    return observed;
  }

  /** Agents with a Secret here, running or not (a Secret can outlive a failed apply). */
  async secretAgentIds(): Promise<string[]> {
    const secrets = await this.call('list secrets', () =>
      this.core.listNamespacedSecret({ namespace: this.namespace, labelSelector: `${LABEL_MANAGED_BY}=${MANAGED_BY}` }),
    );
    return secrets.items.map((s) => s.metadata?.labels?.[LABEL_AGENT_ID]).filter((id): id is string => !!id);
  }

  private labels(workload: Pick<Workload, 'agentId' | 'generation'>): Record<string, string> {
    return {
      [LABEL_AGENT_ID]: workload.agentId,
      [LABEL_MANAGED_BY]: MANAGED_BY,
      [LABEL_GENERATION]: String(workload.generation),
    };
  }

  private agentSelector(agentId: string): string {
    return `${LABEL_MANAGED_BY}=${MANAGED_BY},${LABEL_AGENT_ID}=${agentId}`;
  }

  private podTemplate(workload: Workload, image: string, restartPolicy: 'Always' | 'Never'): V1PodTemplateSpec {
    const env: V1EnvVar[] = [
      { name: HARNESS_ENV.agentId, value: workload.agentId },
      { name: HARNESS_ENV.slug, value: workload.slug },
      { name: HARNESS_ENV.generation, value: String(workload.generation) },
      { name: HARNESS_ENV.harnessId, value: workload.harnessId },
      { name: HARNESS_ENV.agentsUrl, value: this.options.agentsUrl },
      { name: HARNESS_ENV.brokerUrl, value: this.options.brokerUrl },
      {
        name: HARNESS_ENV.serviceToken,
        valueFrom: { secretKeyRef: { name: objectName(workload), key: SECRET_TOKEN_KEY } },
      },
    ];
    return {
      metadata: { labels: this.labels(workload) },
      spec: { restartPolicy, containers: [{ name: CONTAINER, image, env }] },
    };
  }

  private async applySecret(workload: Workload): Promise<void> {
    const name = objectName(workload);
    const token = Buffer.from(this.options.serviceToken).toString('base64');
    const existing = await this.agentSecrets(workload.agentId);
    // A slug change renames the Secret; the old one would otherwise stay behind.
    for (const secret of existing) if (secret.metadata?.name !== name) await this.deleteSecret(secret.metadata!.name!);
    const current = existing.find((s) => s.metadata?.name === name);
    if (current?.data?.[SECRET_TOKEN_KEY] === token) return;
    if (current) {
      await this.call(`update secret ${name}`, () =>
        this.core.patchNamespacedSecret(
          {
            name,
            namespace: this.namespace,
            body: {
              metadata: { resourceVersion: current.metadata?.resourceVersion },
              data: { [SECRET_TOKEN_KEY]: token },
            },
          },
          mergePatch,
        ),
      );
      return;
    }
    const body: V1Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: this.namespace, labels: this.labels(workload) },
      type: 'Opaque',
      data: { [SECRET_TOKEN_KEY]: token },
    };
    try {
      await this.core.createNamespacedSecret({ namespace: this.namespace, body });
    } catch (error) {
      // Another reconciler pass made it first; the next apply compares its token.
      if (!isReason(error, 'AlreadyExists')) throw wrap(`create secret ${name}`, error);
    }
  }

  private async applyDeployment(workload: Workload, image: string): Promise<void> {
    const name = objectName(workload);
    const existing = await this.agentDeployments(workload.agentId);
    for (const d of existing) if (d.metadata?.name !== name) await this.deleteDeployment(d.metadata!.name!);
    let current = existing.find((d) => d.metadata?.name === name);
    const template = this.podTemplate(workload, image, 'Always');
    if (!current) {
      const body: V1Deployment = {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace: this.namespace, labels: this.labels(workload) },
        spec: {
          replicas: 1,
          // One harness per agent at any time: the old pod stops before the new one starts.
          strategy: { type: 'Recreate' },
          selector: { matchLabels: { [LABEL_AGENT_ID]: workload.agentId, [LABEL_MANAGED_BY]: MANAGED_BY } },
          template,
        },
      };
      try {
        await this.apps.createNamespacedDeployment({ namespace: this.namespace, body });
        return;
      } catch (error) {
        if (!isReason(error, 'AlreadyExists')) throw wrap(`create deployment ${name}`, error);
        current = await this.readDeployment(name);
      }
    }
    // The resourceVersion makes the patch conditional: a concurrent writer gets us a Conflict,
    // and one re-read decides again rather than overwriting what it did.
    for (let attempt = 0; ; attempt++) {
      if (!current || templateGeneration(current) === workload.generation) return;
      try {
        await this.apps.patchNamespacedDeployment(
          {
            name,
            namespace: this.namespace,
            body: {
              metadata: { resourceVersion: current.metadata?.resourceVersion, labels: this.labels(workload) },
              spec: { replicas: 1, template },
            },
          },
          mergePatch,
        );
        return;
      } catch (error) {
        if (attempt > 0 || !isReason(error, 'Conflict')) throw wrap(`update deployment ${name}`, error);
        current = await this.readDeployment(name);
      }
    }
  }

  private async createJob(workload: Workload, image: string, name: string): Promise<void> {
    const ttl = workload.ttlAt!.getTime() - this.now().getTime();
    const body: V1Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: this.namespace, labels: this.labels(workload) },
      spec: {
        // An ephemeral agent runs until its ttl_at; one already past it still gets a second to stop.
        activeDeadlineSeconds: Math.max(1, Math.ceil(ttl / 1000)),
        // A failed harness is not retried within a generation: the reconciler decides what next.
        backoffLimit: 0,
        template: this.podTemplate(workload, image, 'Never'),
      },
    };
    try {
      await this.batch.createNamespacedJob({ namespace: this.namespace, body });
    } catch (error) {
      // Created meanwhile by another pass: the Job of this generation is there, and runs once.
      if (!isReason(error, 'AlreadyExists')) throw wrap(`create job ${name}`, error);
    }
  }

  private async readDeployment(name: string): Promise<V1Deployment | undefined> {
    try {
      return await this.apps.readNamespacedDeployment({ name, namespace: this.namespace });
    } catch (error) {
      if (isReason(error, 'NotFound')) return undefined;
      throw wrap(`read deployment ${name}`, error);
    }
  }

  private async agentDeployments(agentId: string): Promise<V1Deployment[]> {
    const list = await this.call(`list deployments of agent ${agentId}`, () =>
      this.apps.listNamespacedDeployment({ namespace: this.namespace, labelSelector: this.agentSelector(agentId) }),
    );
    return list.items;
  }

  private async agentJobs(agentId: string): Promise<V1Job[]> {
    const list = await this.call(`list jobs of agent ${agentId}`, () =>
      this.batch.listNamespacedJob({ namespace: this.namespace, labelSelector: this.agentSelector(agentId) }),
    );
    return list.items;
  }

  private async agentSecrets(agentId: string): Promise<V1Secret[]> {
    const list = await this.call(`list secrets of agent ${agentId}`, () =>
      this.core.listNamespacedSecret({ namespace: this.namespace, labelSelector: this.agentSelector(agentId) }),
    );
    return list.items;
  }

  private async deleteDeployments(agentId: string, which: (d: V1Deployment) => boolean): Promise<void> {
    for (const d of await this.agentDeployments(agentId)) if (which(d)) await this.deleteDeployment(d.metadata!.name!);
  }

  /** Deletes the agent's Jobs `which` picks and returns the others. */
  private async deleteJobs(agentId: string, which: (j: V1Job) => boolean): Promise<V1Job[]> {
    const kept: V1Job[] = [];
    for (const job of await this.agentJobs(agentId)) {
      if (!which(job)) {
        kept.push(job);
        continue;
      }
      const name = job.metadata!.name!;
      // Without a propagation policy a Job's pods are orphaned and the harness keeps running.
      await this.ignoreNotFound(`delete job ${name}`, () =>
        this.batch.deleteNamespacedJob({ name, namespace: this.namespace, propagationPolicy: 'Background' }),
      );
    }
    return kept;
  }

  private deleteDeployment(name: string): Promise<void> {
    return this.ignoreNotFound(`delete deployment ${name}`, () =>
      this.apps.deleteNamespacedDeployment({ name, namespace: this.namespace, propagationPolicy: 'Background' }),
    );
  }

  private deleteSecret(name: string): Promise<void> {
    return this.ignoreNotFound(`delete secret ${name}`, () =>
      this.core.deleteNamespacedSecret({ name, namespace: this.namespace }),
    );
  }

  private async ignoreNotFound(what: string, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
    } catch (error) {
      if (!isReason(error, 'NotFound')) throw wrap(what, error);
    }
  }

  private async call<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw wrap(what, error);
    }
  }
}

/** client-node 1.x patches with json-patch unless told otherwise. */
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

function templateGeneration(deployment: V1Deployment): number | undefined {
  return metadataGeneration(deployment.spec?.template?.metadata?.labels as Record<string, string> | undefined);
}

/**
 * Removes what runs for agents the service no longer knows (deleted rows, another database):
 * the reconciler passes the ids it has. Returns the agent ids removed.
 */
export async function removeOrphans(runner: Runner, knownAgentIds: Iterable<string>): Promise<string[]> {
  const known = new Set(knownAgentIds);
  const present = new Set((await runner.list()).map((w) => w.agentId));
  if (runner instanceof KubernetesRunner) for (const id of await runner.secretAgentIds()) present.add(id);
  const orphans = [...present].filter((id) => !known.has(id));
  for (const id of orphans) await runner.remove(id);
  return orphans;
}

export interface KubernetesRunnerConfig {
  /** A kubeconfig file (KUBECONFIG); unset: the in-cluster service account, else ~/.kube/config. */
  kubeconfigPath?: string;
  /** A kubeconfig's text, for tests against a local API server; wins over kubeconfigPath. */
  kubeconfigYaml?: string;
  namespace: string;
  /** AGENTS_K8S_IMAGES (`harness=image,...`) or the parsed map. */
  images: string | Readonly<Record<string, string>> | undefined;
  agentsUrl: string;
  serviceToken: string;
  brokerUrl: string;
  now?: () => Date;
}

/** The one line the service's wiring needs: plain settings in, a runner out. */
export function kubernetesRunnerFromConfig(config: KubernetesRunnerConfig): KubernetesRunner {
  const kubeConfig = new KubeConfig();
  if (config.kubeconfigYaml !== undefined) kubeConfig.loadFromString(config.kubeconfigYaml);
  else if (config.kubeconfigPath) kubeConfig.loadFromFile(config.kubeconfigPath);
  else kubeConfig.loadFromDefault();
  const images = typeof config.images === 'string' ? parseHarnessImages(config.images) : { ...config.images };
  if (Object.keys(images).length === 0) {
    throw new Error('AGENTS_K8S_IMAGES: the kubernetes runner needs an image for at least one harness (harness=image)');
  }
  return new KubernetesRunner({
    kubeConfig,
    namespace: config.namespace,
    images,
    agentsUrl: config.agentsUrl,
    serviceToken: config.serviceToken,
    brokerUrl: config.brokerUrl,
    now: config.now,
  });
}
