import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AppsV1Api, BatchV1Api, CoreV1Api, KubeConfig, type V1Deployment } from '@kubernetes/client-node';
import { type FakeKubernetes, startFakeKubernetes } from '@platform/kit/testing';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Secret } from 'kubernetes-models/v1/Secret';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HARNESS_ENV,
  type KubernetesRunner,
  type KubernetesRunnerConfig,
  KubernetesRunnerError,
  kubernetesRunnerFromConfig,
  LABEL_AGENT_ID,
  LABEL_GENERATION,
  LABEL_MANAGED_BY,
  MANAGED_BY,
  objectName,
  parseHarnessImages,
  removeOrphans,
  SECRET_TOKEN_KEY,
} from '../src/runner/kubernetes.ts';
import type { Workload } from '../src/runner/port.ts';

/**
 * The kubernetes runner against the fake Kubernetes API server, and against a real cluster when
 * TEST_KUBECONFIG names a kubeconfig (namespace TEST_KUBERNETES_NAMESPACE, default `default`).
 * Every test works on agents of its own (fresh ids), so a shared namespace is left as it was.
 */

const NOW = new Date('2026-11-26T12:00:00Z');
const HOUR = 3_600_000;

interface Target {
  name: string;
  start(): Promise<{ kubeconfigYaml: string; namespace: string; fake?: FakeKubernetes }>;
}

const targets: Target[] = [
  {
    name: 'fake Kubernetes API',
    start: async () => {
      const fake = await startFakeKubernetes();
      return { kubeconfigYaml: fake.kubeconfig('agents'), namespace: 'agents', fake };
    },
  },
];
const testKubeconfig = process.env.TEST_KUBECONFIG;
if (testKubeconfig) {
  targets.push({
    name: 'cluster at TEST_KUBECONFIG',
    start: async () => ({
      kubeconfigYaml: readFileSync(testKubeconfig, 'utf8'),
      namespace: process.env.TEST_KUBERNETES_NAMESPACE || 'default',
    }),
  });
}

const IMAGES = { platform: 'registry.example/harness-platform:1.4.2', coder: 'registry.example/harness-coder:2.0.0' };

function workload(over: Partial<Workload> = {}): Workload {
  const agentId = over.agentId ?? randomUUID();
  return {
    agentId,
    slug: `t-${agentId.slice(0, 8)}`,
    harnessId: 'platform',
    generation: 1,
    kind: 'deployment',
    ...over,
  };
}

describe.each(targets)('$name', (target) => {
  let fake: FakeKubernetes | undefined;
  let namespace: string;
  let runner: KubernetesRunner;
  let settings: KubernetesRunnerConfig;
  let apps: AppsV1Api;
  let batch: BatchV1Api;
  let core: CoreV1Api;
  const created = new Set<string>();

  const track = (w: Workload) => {
    created.add(w.agentId);
    return w;
  };
  const selector = (agentId: string) => `${LABEL_AGENT_ID}=${agentId}`;
  const deployments = async (agentId: string) =>
    (await apps.listNamespacedDeployment({ namespace, labelSelector: selector(agentId) })).items;
  const jobs = async (agentId: string) =>
    (await batch.listNamespacedJob({ namespace, labelSelector: selector(agentId) })).items;
  const secrets = async (agentId: string) =>
    (await core.listNamespacedSecret({ namespace, labelSelector: selector(agentId) })).items;
  const templateGeneration = (d: V1Deployment) => d.spec?.template?.metadata?.labels?.[LABEL_GENERATION];

  beforeAll(async () => {
    const started = await target.start();
    fake = started.fake;
    namespace = started.namespace;
    settings = {
      kubeconfigYaml: started.kubeconfigYaml,
      namespace,
      images: 'platform=registry.example/harness-platform:1.4.2,coder=registry.example/harness-coder:2.0.0',
      agentsUrl: 'http://agents.platform.svc:4107',
      serviceToken: 'service-token-for-tests',
      brokerUrl: 'http://broker.platform.svc:4102',
      now: () => NOW,
    };
    runner = kubernetesRunnerFromConfig(settings);
    const kc = new KubeConfig();
    kc.loadFromString(started.kubeconfigYaml);
    apps = kc.makeApiClient(AppsV1Api);
    batch = kc.makeApiClient(BatchV1Api);
    core = kc.makeApiClient(CoreV1Api);
  });

  afterAll(async () => {
    for (const id of created) await runner?.remove(id);
    await fake?.close();
  });

  it('18 AGT-059 applying an always-on agent makes one Deployment of its harness image carrying the generation', async () => {
    const w = track(workload({ generation: 4 }));
    await runner.apply(w);

    const [d, ...others] = await deployments(w.agentId);
    expect(others).toEqual([]);
    expect(d.metadata?.name).toBe(objectName(w));
    expect(d.metadata?.labels).toMatchObject({
      [LABEL_AGENT_ID]: w.agentId,
      [LABEL_MANAGED_BY]: MANAGED_BY,
      [LABEL_GENERATION]: '4',
    });
    expect(d.spec?.replicas).toBe(1);
    expect(d.spec?.strategy?.type).toBe('Recreate');
    expect(templateGeneration(d)).toBe('4');
    const container = d.spec?.template?.spec?.containers[0];
    expect(container?.image).toBe(IMAGES.platform);
    const env = Object.fromEntries((container?.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
    expect(env).toMatchObject({
      [HARNESS_ENV.agentId]: w.agentId,
      [HARNESS_ENV.generation]: '4',
      [HARNESS_ENV.harnessId]: 'platform',
      [HARNESS_ENV.agentsUrl]: 'http://agents.platform.svc:4107',
      [HARNESS_ENV.brokerUrl]: 'http://broker.platform.svc:4102',
      [HARNESS_ENV.serviceToken]: { secretKeyRef: { name: objectName(w), key: SECRET_TOKEN_KEY } },
    });

    const [secret] = await secrets(w.agentId);
    expect(secret.metadata?.name).toBe(objectName(w));
    expect(Buffer.from(secret.data?.[SECRET_TOKEN_KEY] ?? '', 'base64').toString()).toBe('service-token-for-tests');
    expect(await runner.list()).toContainEqual({
      agentId: w.agentId,
      kind: 'deployment',
      generation: 4,
      name: objectName(w),
    });
  });

  it('18 kubernetes runner: applying the same generation again changes nothing (same resourceVersion)', async () => {
    const w = track(workload());
    await runner.apply(w);
    const [before] = await deployments(w.agentId);
    const [secretBefore] = await secrets(w.agentId);

    await runner.apply(w);

    const [after] = await deployments(w.agentId);
    const [secretAfter] = await secrets(w.agentId);
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    expect(after.metadata?.generation).toBe(before.metadata?.generation);
    expect(secretAfter.metadata?.resourceVersion).toBe(secretBefore.metadata?.resourceVersion);
  });

  it("18 kubernetes runner: a changed service token is written into the agent's Secret without touching the Deployment", async () => {
    const w = track(workload());
    await runner.apply(w);
    const [before] = await deployments(w.agentId);
    const rotated = kubernetesRunnerFromConfig({ ...settings, serviceToken: 'rotated-token' });

    await rotated.apply(w);

    const [secret, ...others] = await secrets(w.agentId);
    expect(others).toEqual([]);
    expect(Buffer.from(secret.data?.[SECRET_TOKEN_KEY] ?? '', 'base64').toString()).toBe('rotated-token');
    expect((await deployments(w.agentId))[0].metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
  });

  it("18 AGT-078 a generation bump changes the Deployment's pod template, so Kubernetes recycles the pod", async () => {
    const w = track(workload({ generation: 1 }));
    await runner.apply(w);
    const [before] = await deployments(w.agentId);

    await runner.apply({ ...w, generation: 2 });

    const [after, ...others] = await deployments(w.agentId);
    expect(others).toEqual([]);
    // The same Deployment, its template changed: a rollout, not a delete and create.
    expect(after.metadata?.uid).toBe(before.metadata?.uid);
    expect(templateGeneration(after)).toBe('2');
    expect(after.metadata?.labels?.[LABEL_GENERATION]).toBe('2');
    expect(after.metadata?.generation).toBeGreaterThan(before.metadata?.generation ?? 0);
    expect(after.spec?.template?.spec?.containers[0].env).toContainEqual({ name: HARNESS_ENV.generation, value: '2' });
    expect((await runner.list()).filter((o) => o.agentId === w.agentId)).toEqual([
      { agentId: w.agentId, kind: 'deployment', generation: 2, name: objectName(w) },
    ]);
  });

  it('18 AGT-060 an ephemeral agent runs one Job per generation, until its ttl, never retried; the older Job goes', async () => {
    const w = track(workload({ kind: 'job', generation: 1, ttlAt: new Date(NOW.getTime() + HOUR) }));
    await runner.apply(w);
    const [first] = await jobs(w.agentId);
    expect(first.metadata?.name).toBe(objectName(w, '-g1'));
    expect(first.spec?.activeDeadlineSeconds).toBe(3600);
    expect(first.spec?.backoffLimit).toBe(0);
    expect(first.spec?.template.spec?.restartPolicy).toBe('Never');
    expect(first.metadata?.labels?.[LABEL_GENERATION]).toBe('1');

    await runner.apply({ ...w, generation: 2, ttlAt: new Date(NOW.getTime() + 2 * HOUR) });

    const after = await jobs(w.agentId);
    expect(after.map((j) => j.metadata?.name)).toEqual([objectName(w, '-g2')]);
    expect(after[0].spec?.activeDeadlineSeconds).toBe(7200);
    expect((await runner.list()).filter((o) => o.agentId === w.agentId)).toEqual([
      { agentId: w.agentId, kind: 'job', generation: 2, name: objectName(w, '-g2') },
    ]);
  });

  it('18 AGT-076 restarting an expired ephemeral agent starts a new Job for the new generation', async () => {
    // Expired: its ttl is behind us and its Job ran out; restart gives a new ttl and generation.
    const w = track(workload({ kind: 'job', generation: 3, ttlAt: new Date(NOW.getTime() - HOUR) }));
    await runner.apply(w);
    const [expired] = await jobs(w.agentId);
    expect(expired.spec?.activeDeadlineSeconds).toBe(1);

    await runner.apply({ ...w, generation: 4, ttlAt: new Date(NOW.getTime() + HOUR) });

    const [job, ...others] = await jobs(w.agentId);
    expect(others).toEqual([]);
    expect(job.metadata?.name).toBe(objectName(w, '-g4'));
    expect(job.metadata?.uid).not.toBe(expired.metadata?.uid);
    expect(job.spec?.activeDeadlineSeconds).toBe(3600);
  });

  it('18 kubernetes runner: applying the Job of the same generation again leaves it as it is, not run twice', async () => {
    const w = track(workload({ kind: 'job', ttlAt: new Date(NOW.getTime() + HOUR) }));
    await runner.apply(w);
    const [before] = await jobs(w.agentId);

    await runner.apply(w);

    const after = await jobs(w.agentId);
    expect(after.map((j) => [j.metadata?.uid, j.metadata?.resourceVersion])).toEqual([
      [before.metadata?.uid, before.metadata?.resourceVersion],
    ]);
  });

  it("18 kubernetes runner: applying one kind removes the agent's other kind", async () => {
    const w = track(workload({ kind: 'deployment', generation: 1 }));
    await runner.apply(w);
    await runner.apply({ ...w, kind: 'job', generation: 2, ttlAt: new Date(NOW.getTime() + HOUR) });
    expect(await deployments(w.agentId)).toEqual([]);
    expect((await jobs(w.agentId)).map((j) => j.metadata?.name)).toEqual([objectName(w, '-g2')]);

    await runner.apply({ ...w, kind: 'deployment', generation: 3 });
    expect(await jobs(w.agentId)).toEqual([]);
    expect((await deployments(w.agentId)).map(templateGeneration)).toEqual(['3']);
  });

  it('18 AGT-064 AGT-071 AGT-081 remove leaves no Deployment, Job or Secret of the agent; twice is fine; others stay', async () => {
    const w = track(workload());
    const job = track(workload({ kind: 'job', ttlAt: new Date(NOW.getTime() + HOUR) }));
    const other = track(workload());
    await runner.apply(w);
    await runner.apply(job);
    await runner.apply(other);

    await runner.remove(w.agentId);
    await runner.remove(job.agentId);

    for (const id of [w.agentId, job.agentId]) {
      expect(await deployments(id)).toEqual([]);
      expect(await jobs(id)).toEqual([]);
      expect(await secrets(id)).toEqual([]);
    }
    const listed = (await runner.list()).map((o) => o.agentId);
    expect(listed).not.toContain(w.agentId);
    expect(listed).not.toContain(job.agentId);
    expect(listed).toContain(other.agentId);
    expect(await secrets(other.agentId)).toHaveLength(1);

    await expect(runner.remove(w.agentId)).resolves.toBeUndefined();
    await expect(runner.remove(randomUUID())).resolves.toBeUndefined();
  });

  it('18 kubernetes runner: list reads agent id, kind and generation from the labels of Deployments and Jobs', async () => {
    const a = track(workload({ generation: 7 }));
    const b = track(workload({ kind: 'job', generation: 2, ttlAt: new Date(NOW.getTime() + HOUR) }));
    await runner.apply(a);
    await runner.apply(b);

    const mine = (await runner.list()).filter((o) => o.agentId === a.agentId || o.agentId === b.agentId);
    expect(mine).toHaveLength(2);
    expect(mine).toEqual(
      expect.arrayContaining([
        { agentId: a.agentId, kind: 'deployment', generation: 7, name: objectName(a) },
        { agentId: b.agentId, kind: 'job', generation: 2, name: objectName(b, '-g2') },
      ]),
    );
  });

  it('18 kubernetes runner: removeOrphans removes agents the service does not know and keeps the known ones', async () => {
    const known = track(workload());
    const orphan = track(workload());
    const orphanJob = track(workload({ kind: 'job', ttlAt: new Date(NOW.getTime() + HOUR) }));
    const secretOnly = track(workload());
    await runner.apply(known);
    await runner.apply(orphan);
    await runner.apply(orphanJob);
    // An apply that failed after writing the Secret leaves only the Secret behind.
    const sloppy = kubernetesRunnerFromConfig({ ...settings, images: { platform: `${IMAGES.platform} ` } });
    await expect(sloppy.apply(secretOnly)).rejects.toThrow(KubernetesRunnerError);
    expect(await secrets(secretOnly.agentId)).toHaveLength(1);
    const orphans = [orphan.agentId, orphanJob.agentId, secretOnly.agentId];
    // Everything else in the namespace counts as known, so a shared cluster namespace keeps its agents.
    const present = [...(await runner.list()).map((o) => o.agentId), ...(await runner.secretAgentIds())];
    const others = present.filter((id) => !orphans.includes(id));

    const removed = await removeOrphans(runner, others);

    expect(removed.sort()).toEqual([...orphans].sort());
    expect(await deployments(orphan.agentId)).toEqual([]);
    expect(await jobs(orphanJob.agentId)).toEqual([]);
    for (const id of orphans) expect(await secrets(id)).toEqual([]);
    expect(await deployments(known.agentId)).toHaveLength(1);
    expect(await secrets(known.agentId)).toHaveLength(1);
    expect(await removeOrphans(runner, present)).toEqual([]);
  });

  it("18 kubernetes runner: a changed slug moves the agent's Deployment and Secret to the new name", async () => {
    const w = track(workload());
    await runner.apply(w);
    const renamed = { ...w, slug: `${w.slug}-renamed`, generation: 2 };

    await runner.apply(renamed);

    expect((await deployments(w.agentId)).map((d) => d.metadata?.name)).toEqual([objectName(renamed)]);
    expect((await secrets(w.agentId)).map((s) => s.metadata?.name)).toEqual([objectName(renamed)]);
  });

  it('18 kubernetes runner: a slug that is no DNS label still gives valid names, Job names within 63 characters', async () => {
    const w = track(
      workload({
        slug: 'Ünïcode_Slug.with.dots-and-a-name-long-enough-to-need-cutting-down-0123456789',
        kind: 'job',
        generation: 12,
        ttlAt: new Date(NOW.getTime() + HOUR),
      }),
    );
    await runner.apply(w);
    const [job] = await jobs(w.agentId);
    expect(job.metadata?.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(job.metadata?.name?.length).toBeLessThanOrEqual(63);
    expect(job.metadata?.name?.endsWith('-g12')).toBe(true);
    expect(objectName(w)).not.toBe(objectName({ ...w, agentId: randomUUID() }));
  });

  it('18 kubernetes runner: an unknown harness is a clear, non-retryable error and creates nothing', async () => {
    const w = track(workload({ harnessId: 'no-such-harness' }));
    const error = await runner.apply(w).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubernetesRunnerError);
    expect((error as KubernetesRunnerError).message).toMatch(/no image for harness "no-such-harness".*platform, coder/);
    expect((error as KubernetesRunnerError).retryable).toBe(false);
    expect(await deployments(w.agentId)).toEqual([]);
    expect(await secrets(w.agentId)).toEqual([]);
  });

  it("18 kubernetes runner: the API server's 422 Invalid surfaces as a non-retryable error with its reason", async () => {
    // An image with a trailing space passes the runner and is refused by the API server.
    const sloppy = kubernetesRunnerFromConfig({ ...settings, images: { platform: `${IMAGES.platform} ` } });
    const w = track(workload());
    const error = await sloppy.apply(w).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubernetesRunnerError);
    expect(error).toMatchObject({ status: 422, reason: 'Invalid', retryable: false });
    expect((error as Error).message).toMatch(/create deployment .*image/);
    expect(await deployments(w.agentId)).toEqual([]);
  });

  it('18 kubernetes runner: an agent id that is no label value is refused before any call', async () => {
    const error = await runner.apply(workload({ agentId: 'not a label value!' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubernetesRunnerError);
    expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(/is not a label value/) });
  });
});

describe('fake Kubernetes API: what the runner sends', () => {
  let fake: FakeKubernetes;
  let runner: KubernetesRunner;

  beforeAll(async () => {
    fake = await startFakeKubernetes();
    runner = kubernetesRunnerFromConfig({
      kubeconfigYaml: fake.kubeconfig(),
      namespace: 'agents',
      images: IMAGES,
      agentsUrl: 'http://agents:4107',
      serviceToken: 'token',
      brokerUrl: 'http://broker:4102',
      now: () => NOW,
    });
  });
  afterAll(() => fake.close());

  it('18 kubernetes runner: every body the runner sends is valid by kubernetes-models, and so is every stored object', async () => {
    const from = fake.requests.length;
    const w = workload();
    await runner.apply(w);
    await runner.apply({ ...w, generation: 2 });
    await runner.apply({ ...w, kind: 'job', generation: 3, ttlAt: new Date(NOW.getTime() + HOUR) });
    await runner.apply({ ...w, kind: 'job', generation: 4, ttlAt: new Date(NOW.getTime() + HOUR) });
    await runner.apply({ ...w, kind: 'job', generation: 4, ttlAt: new Date(NOW.getTime() + HOUR) });
    await runner.remove(w.agentId);

    const sent = fake.requests.slice(from);
    const models = { deployments: Deployment, jobs: Job, secrets: Secret };
    const creates = sent.filter((r) => r.method === 'POST');
    expect(creates.map((r) => r.resource)).toEqual(['secrets', 'deployments', 'jobs', 'jobs']);
    for (const r of creates) {
      const Model = models[r.resource as keyof typeof models];
      expect(() => new Model(r.body as never).validate(), `${r.method} ${r.path}`).not.toThrow();
    }
    expect(sent.filter((r) => r.status >= 300)).toEqual([]);
    expect(sent.filter((r) => r.method === 'PATCH').map((r) => r.contentType)).toEqual([
      'application/merge-patch+json',
    ]);
    const deletes = sent.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => [r.resource, r.query.propagationPolicy])).toEqual([
      ['deployments', 'Background'],
      ['jobs', 'Background'],
      ['jobs', 'Background'],
      ['secrets', undefined],
    ]);
    for (const r of sent.filter((r) => r.method === 'PATCH'))
      expect(r.body).toMatchObject({ metadata: { resourceVersion: expect.any(String) } });

    await runner.apply(workload());
    await runner.apply(workload({ kind: 'job', ttlAt: new Date(NOW.getTime() + HOUR) }));
    for (const o of fake.objects('Deployment')) expect(() => new Deployment(o as never).validate()).not.toThrow();
    for (const o of fake.objects('Job')) expect(() => new Job(o as never).validate()).not.toThrow();
    for (const o of fake.objects('Secret')) expect(() => new Secret(o as never).validate()).not.toThrow();
  });

  it('18 kubernetes runner: applying what is already there sends only reads', async () => {
    const always = workload();
    const ephemeral = workload({ kind: 'job', ttlAt: new Date(NOW.getTime() + HOUR) });
    await runner.apply(always);
    await runner.apply(ephemeral);
    const from = fake.requests.length;

    await runner.apply(always);
    await runner.apply({ ...ephemeral, ttlAt: new Date(NOW.getTime() + 2 * HOUR) });

    expect(fake.requests.slice(from).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('18 kubernetes runner: a 409 Conflict on the Deployment patch is retried once after a re-read', async () => {
    const w = workload();
    await runner.apply(w);
    const name = objectName(w);
    // Another writer changes the Deployment between the runner's read and its patch.
    fake.beforeNext({ method: 'PATCH', resource: 'deployments', name }, () =>
      fake.modify('Deployment', 'agents', name, (d) => {
        d.metadata.annotations = { 'example.com/touched': 'yes' };
      }),
    );
    const from = fake.requests.length;

    await runner.apply({ ...w, generation: 2 });

    const calls = fake.requests.slice(from).filter((r) => r.resource === 'deployments' && r.name === name);
    expect(calls.map((r) => [r.method, r.status])).toEqual([
      ['PATCH', 409],
      ['GET', 200],
      ['PATCH', 200],
    ]);
    const stored = fake.get('Deployment', 'agents', name)!;
    expect(stored.spec.template.metadata.labels[LABEL_GENERATION]).toBe('2');
    expect(stored.metadata.annotations).toEqual({ 'example.com/touched': 'yes' });
  });

  it('18 kubernetes runner: a second Conflict is not retried again; the error says Conflict and that a retry may help', async () => {
    const w = workload();
    await runner.apply(w);
    const name = objectName(w);
    const touch = () =>
      fake.modify('Deployment', 'agents', name, (d) => {
        d.metadata.annotations = { 'example.com/touched': String(Math.random()) };
      });
    fake.beforeNext({ method: 'PATCH', resource: 'deployments', name }, touch);
    fake.beforeNext({ method: 'PATCH', resource: 'deployments', name }, touch);

    const error = await runner.apply({ ...w, generation: 2 }).catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 409, reason: 'Conflict', retryable: true });
    expect(fake.get('Deployment', 'agents', name)!.spec.template.metadata.labels[LABEL_GENERATION]).toBe('1');
  });

  it('18 kubernetes runner: when the re-read after a Conflict shows the generation applied, nothing more is sent', async () => {
    const w = workload();
    await runner.apply(w);
    const name = objectName(w);
    fake.beforeNext({ method: 'PATCH', resource: 'deployments', name }, () =>
      fake.modify('Deployment', 'agents', name, (d) => {
        d.spec.template.metadata.labels[LABEL_GENERATION] = '2';
      }),
    );
    const from = fake.requests.length;

    await runner.apply({ ...w, generation: 2 });

    expect(
      fake.requests
        .slice(from)
        .filter((r) => r.method === 'PATCH')
        .map((r) => r.status),
    ).toEqual([409]);
  });

  it('18 kubernetes runner: a Deployment created by someone else meanwhile (AlreadyExists) is read and brought to the generation', async () => {
    const w = workload({ generation: 5 });
    const name = objectName(w);
    // Created between the runner's list and its create.
    fake.beforeNext({ method: 'POST', resource: 'deployments' }, () =>
      fake.seed({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name,
          namespace: 'agents',
          labels: { [LABEL_AGENT_ID]: w.agentId, [LABEL_MANAGED_BY]: MANAGED_BY },
        },
        spec: {
          selector: { matchLabels: { [LABEL_AGENT_ID]: w.agentId, [LABEL_MANAGED_BY]: MANAGED_BY } },
          template: {
            metadata: {
              labels: { [LABEL_AGENT_ID]: w.agentId, [LABEL_MANAGED_BY]: MANAGED_BY, [LABEL_GENERATION]: '4' },
            },
            spec: { containers: [{ name: 'harness', image: IMAGES.platform }] },
          },
        },
      }),
    );

    await runner.apply(w);

    expect(fake.get('Deployment', 'agents', name)!.spec.template.metadata.labels[LABEL_GENERATION]).toBe('5');
  });

  it('18 kubernetes runner: a Job created meanwhile by another pass (AlreadyExists) counts as there and is not replaced', async () => {
    const w = workload({ kind: 'job', generation: 2, ttlAt: new Date(NOW.getTime() + HOUR) });
    const name = objectName(w, '-g2');
    let other: string | undefined;
    fake.beforeNext({ method: 'POST', resource: 'jobs' }, () => {
      other = fake.seed({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {
          name,
          namespace: 'agents',
          labels: { [LABEL_AGENT_ID]: w.agentId, [LABEL_MANAGED_BY]: MANAGED_BY, [LABEL_GENERATION]: '2' },
        },
        spec: {
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'harness', image: IMAGES.platform }] } },
        },
      }).metadata.uid;
    });
    const from = fake.requests.length;

    await runner.apply(w);

    expect(
      fake.requests
        .slice(from)
        .filter((r) => r.method === 'POST' && r.resource === 'jobs')
        .map((r) => r.status),
    ).toEqual([409]);
    expect(fake.get('Job', 'agents', name)!.metadata.uid).toBe(other);
  });

  it('18 kubernetes runner: NotFound on delete (gone meanwhile) is ignored', async () => {
    const w = workload();
    await runner.apply(w);
    const name = objectName(w);
    // Deleted by someone else between the runner's list and its delete.
    fake.beforeNext({ method: 'DELETE', resource: 'deployments', name }, () =>
      fake.remove('Deployment', 'agents', name),
    );
    const from = fake.requests.length;

    await expect(runner.remove(w.agentId)).resolves.toBeUndefined();

    const deletes = fake.requests.slice(from).filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => [r.resource, r.status])).toEqual([
      ['deployments', 404],
      ['secrets', 200],
    ]);
    expect(fake.objects('Secret', 'agents').filter((s) => s.metadata.labels[LABEL_AGENT_ID] === w.agentId)).toEqual([]);
  });

  it('18 kubernetes runner: an unreachable API server is a retryable error', async () => {
    const gone = await startFakeKubernetes();
    const config = gone.kubeconfig();
    await gone.close();
    const offline = kubernetesRunnerFromConfig({
      kubeconfigYaml: config,
      namespace: 'agents',
      images: IMAGES,
      agentsUrl: 'http://agents:4107',
      serviceToken: 'token',
      brokerUrl: 'http://broker:4102',
    });
    const error = await offline.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubernetesRunnerError);
    expect(error).toMatchObject({ status: undefined, retryable: true });
  });

  it('18 kubernetes runner: AGENTS_K8S_IMAGES pairs parse, and a bad pair or none at all is refused', () => {
    expect(parseHarnessImages('platform=a/b:1, coder=c/d:2')).toEqual({ platform: 'a/b:1', coder: 'c/d:2' });
    expect(() => parseHarnessImages('platform')).toThrow(/"platform" is not harness=image/);
    expect(() =>
      kubernetesRunnerFromConfig({
        kubeconfigYaml: fake.kubeconfig(),
        namespace: 'agents',
        images: undefined,
        agentsUrl: 'http://agents:4107',
        serviceToken: 'token',
        brokerUrl: 'http://broker:4102',
      }),
    ).toThrow(/AGENTS_K8S_IMAGES/);
  });
});
