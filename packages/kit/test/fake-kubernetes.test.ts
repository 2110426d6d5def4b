import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeKubernetes, matchesLabelSelector, startFakeKubernetes } from '../src/testing/fake-kubernetes.ts';

/** The fake Kubernetes API server's own shapes: paths, metadata, defaults, Status bodies, patches, selectors. */

const DEPLOYMENTS = '/apis/apps/v1/namespaces/ns/deployments';
const JOBS = '/apis/batch/v1/namespaces/ns/jobs';
const SECRETS = '/api/v1/namespaces/ns/secrets';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as a client would.
type Answer = { status: number; body: any };

function deployment(name: string, labels: Record<string, string> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'example/app:1' }] },
      },
    },
  };
}

describe('fake Kubernetes API', () => {
  let fake: FakeKubernetes;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<Answer> => {
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    fake = await startFakeKubernetes();
  });
  afterAll(() => fake.close());

  it('kit fake kubernetes: create answers 201 with the metadata and defaults the API server fills in', async () => {
    const created = await call('POST', DEPLOYMENTS, deployment('web'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'ns', generation: 1, uid: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      spec: { replicas: 1, strategy: { type: 'RollingUpdate' }, template: { spec: { restartPolicy: 'Always' } } },
      status: {},
    });
    expect(created.body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(created.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await call('GET', `${DEPLOYMENTS}/web`)).body).toEqual(created.body);
    expect(fake.get('Deployment', 'ns', 'web')).toEqual(created.body);
  });

  it('kit fake kubernetes: AlreadyExists, NotFound and the core group have the real Status bodies', async () => {
    await call('POST', DEPLOYMENTS, deployment('twice'));
    expect(await call('POST', DEPLOYMENTS, deployment('twice'))).toEqual({
      status: 409,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'deployments.apps "twice" already exists',
        reason: 'AlreadyExists',
        details: { name: 'twice', group: 'apps', kind: 'deployments' },
        code: 409,
      },
    });
    expect(await call('GET', `${DEPLOYMENTS}/missing`)).toEqual({
      status: 404,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'deployments.apps "missing" not found',
        reason: 'NotFound',
        details: { name: 'missing', group: 'apps', kind: 'deployments' },
        code: 404,
      },
    });
    expect((await call('DELETE', `${SECRETS}/missing`)).body).toMatchObject({
      message: 'secrets "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', kind: 'secrets' },
      code: 404,
    });
    expect((await call('GET', '/apis/example.com/v1/namespaces/ns/widgets')).body).toMatchObject({
      reason: 'NotFound',
      code: 404,
    });
  });

  it('kit fake kubernetes: bodies off the schema or the API server rules are 422 Invalid with causes', async () => {
    const wrongType = deployment('typed') as ReturnType<typeof deployment> & { spec: { replicas?: unknown } };
    wrongType.spec.replicas = 'one';
    const typed = await call('POST', DEPLOYMENTS, wrongType);
    expect(typed.status).toBe(422);
    expect(typed.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      details: {
        name: 'typed',
        group: 'apps',
        kind: 'Deployment',
        causes: [expect.objectContaining({ message: expect.stringMatching(/replicas/) })],
      },
    });
    expect(typed.body.message).toMatch(/^Deployment\.apps "typed" is invalid: /);

    const badName = await call('POST', DEPLOYMENTS, deployment('Bad_Name'));
    expect(badName.body.details.causes).toContainEqual(expect.objectContaining({ field: 'metadata.name' }));
    const badLabel = await call('POST', DEPLOYMENTS, deployment('labels', { 'x/y': 'not ok!' }));
    expect(badLabel.body.details.causes).toContainEqual(expect.objectContaining({ field: 'metadata.labels' }));
    const mismatch = deployment('mismatch');
    mismatch.spec.selector.matchLabels.app = 'other';
    expect((await call('POST', DEPLOYMENTS, mismatch)).body.details.causes).toContainEqual(
      expect.objectContaining({ field: 'spec.template.metadata.labels' }),
    );
    const noImage = deployment('noimage') as unknown as { spec: { template: { spec: { containers: object[] } } } };
    noImage.spec.template.spec.containers = [{ name: 'main' }];
    expect((await call('POST', DEPLOYMENTS, noImage)).body.details.causes).toContainEqual(
      expect.objectContaining({ field: 'spec.template.spec.containers[0].image' }),
    );
    const alwaysJob = {
      metadata: { name: 'always' },
      spec: { template: { spec: { restartPolicy: 'Always', containers: [{ name: 'c', image: 'i:1' }] } } },
    };
    expect((await call('POST', JOBS, alwaysJob)).body.details.causes).toContainEqual(
      expect.objectContaining({ field: 'spec.template.spec.restartPolicy', reason: 'FieldValueNotSupported' }),
    );
    expect((await call('POST', DEPLOYMENTS, { ...deployment('k'), kind: 'Job' })).body).toMatchObject({
      reason: 'BadRequest',
      code: 400,
    });
    expect(
      (await call('POST', DEPLOYMENTS, { ...deployment('ns'), metadata: { name: 'ns', namespace: 'elsewhere' } }))
        .status,
    ).toBe(400);
    expect(fake.objects('Deployment', 'ns').map((d) => d.metadata.name)).not.toEqual(
      expect.arrayContaining(['typed', 'Bad_Name', 'labels', 'mismatch', 'noimage']),
    );
  });

  it('kit fake kubernetes: a Job gets its generated selector and pod labels; its template is immutable', async () => {
    const job = {
      metadata: { name: 'once' },
      spec: {
        backoffLimit: 0,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i:1' }] } },
      },
    };
    const created = await call('POST', JOBS, job);
    expect(created.status).toBe(201);
    const uid = created.body.metadata.uid;
    expect(created.body.spec).toMatchObject({
      backoffLimit: 0,
      completions: 1,
      parallelism: 1,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      template: { metadata: { labels: { 'batch.kubernetes.io/job-name': 'once', 'controller-uid': uid } } },
    });
    const changed = await call(
      'PATCH',
      `${JOBS}/once`,
      { spec: { template: { spec: { containers: [{ name: 'c', image: 'i:2' }] } } } },
      'application/merge-patch+json',
    );
    expect(changed.status).toBe(422);
    expect(changed.body.details.causes).toContainEqual(
      expect.objectContaining({ field: 'spec.template', message: 'Invalid value: field is immutable' }),
    );
    const tooLong = { ...job, metadata: { name: `j${'x'.repeat(63)}` } };
    expect((await call('POST', JOBS, tooLong)).status).toBe(422);
  });

  it('kit fake kubernetes: merge patch counts generation for spec changes only, and a no-op changes nothing', async () => {
    const { body: created } = await call('POST', DEPLOYMENTS, deployment('patched'));
    const merge = (body: unknown) => call('PATCH', `${DEPLOYMENTS}/patched`, body, 'application/merge-patch+json');

    const labelled = await merge({ metadata: { labels: { team: 'a' } } });
    expect(labelled.body.metadata).toMatchObject({ generation: 1, labels: { team: 'a' } });
    expect(Number(labelled.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));

    const respec = await merge({ spec: { template: { metadata: { labels: { rev: '2' } } } } });
    expect(respec.body.metadata.generation).toBe(2);
    expect(respec.body.spec.template.metadata.labels).toEqual({ app: 'patched', rev: '2' });
    expect(respec.body.metadata.uid).toBe(created.metadata.uid);

    const same = await merge({ spec: { template: { metadata: { labels: { rev: '2' } } } } });
    expect(same.body.metadata.resourceVersion).toBe(respec.body.metadata.resourceVersion);

    const removed = await merge({ metadata: { labels: { team: null } } });
    expect(removed.body.metadata.labels).toEqual({});

    const stale = await merge({
      metadata: { resourceVersion: created.metadata.resourceVersion, labels: { late: 'yes' } },
    });
    expect(stale).toEqual({
      status: 409,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Operation cannot be fulfilled on deployments.apps "patched": the object has been modified; please apply your changes to the latest version and try again',
        reason: 'Conflict',
        details: { name: 'patched', group: 'apps', kind: 'deployments' },
        code: 409,
      },
    });
    expect((await call('PATCH', `${DEPLOYMENTS}/absent`, {}, 'application/merge-patch+json')).status).toBe(404);
  });

  it('kit fake kubernetes: json patch applies add, replace, remove and test; strategic merge is 415', async () => {
    await call('POST', DEPLOYMENTS, deployment('jp'));
    const patched = await call(
      'PATCH',
      `${DEPLOYMENTS}/jp`,
      [
        { op: 'test', path: '/spec/replicas', value: 1 },
        { op: 'replace', path: '/spec/replicas', value: 3 },
        { op: 'add', path: '/metadata/labels/tier', value: 'web' },
        { op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'side', image: 'example/side:1' } },
        { op: 'remove', path: '/spec/revisionHistoryLimit' },
      ],
      'application/json-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.body.spec.replicas).toBe(3);
    expect(patched.body.metadata.labels.tier).toBe('web');
    expect(patched.body.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['main', 'side']);
    // Defaulting puts it back, as the API server's defaulting would.
    expect(patched.body.spec.revisionHistoryLimit).toBe(10);
    const failedTest = await call(
      'PATCH',
      `${DEPLOYMENTS}/jp`,
      [{ op: 'test', path: '/spec/replicas', value: 1 }],
      'application/json-patch+json',
    );
    expect(failedTest.status).toBe(422);
    const strategic = await call(
      'PATCH',
      `${DEPLOYMENTS}/jp`,
      { spec: { replicas: 2 } },
      'application/strategic-merge-patch+json',
    );
    expect(strategic.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
  });

  it('kit fake kubernetes: PUT replaces, checks resourceVersion and the name in the URL', async () => {
    const { body: created } = await call('POST', DEPLOYMENTS, deployment('put'));
    const next = structuredClone(created);
    next.spec.replicas = 2;
    const replaced = await call('PUT', `${DEPLOYMENTS}/put`, next);
    expect(replaced.body).toMatchObject({
      spec: { replicas: 2 },
      metadata: { generation: 2, uid: created.metadata.uid },
    });
    expect((await call('PUT', `${DEPLOYMENTS}/put`, next)).body).toMatchObject({ reason: 'Conflict', code: 409 });
    expect((await call('PUT', `${DEPLOYMENTS}/put`, { ...next, metadata: { name: 'other' } })).status).toBe(400);
    expect((await call('PUT', `${DEPLOYMENTS}/nothere`, deployment('nothere'))).status).toBe(404);
  });

  it('kit fake kubernetes: lists filter by label and field selectors and carry items without kind', async () => {
    const ns = '/apis/apps/v1/namespaces/lists/deployments';
    await call('POST', ns, deployment('a', { team: 'x', tier: 'web' }));
    await call('POST', ns, deployment('b', { team: 'y', tier: 'web' }));
    await call('POST', ns, deployment('c', { team: 'x' }));
    const names = async (query: string) =>
      (await call('GET', `${ns}?${query}`)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name);

    const all = await call('GET', ns);
    expect(all.body).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'DeploymentList',
      metadata: { resourceVersion: expect.any(String) },
    });
    expect(all.body.items[0].kind).toBeUndefined();
    expect(await names('labelSelector=team%3Dx')).toEqual(['a', 'c']);
    expect(await names('labelSelector=team%3D%3Dx,tier%3Dweb')).toEqual(['a']);
    expect(await names('labelSelector=team!%3Dx')).toEqual(['b']);
    expect(await names('labelSelector=tier')).toEqual(['a', 'b']);
    expect(await names('labelSelector=!tier')).toEqual(['c']);
    expect(await names(`labelSelector=${encodeURIComponent('team in (y, z)')}`)).toEqual(['b']);
    expect(await names(`labelSelector=${encodeURIComponent('team notin (y)')}`)).toEqual(['a', 'c']);
    expect(await names('fieldSelector=metadata.name%3Db')).toEqual(['b']);
    expect((await call('GET', `${ns}?labelSelector=${encodeURIComponent('team=not ok!')}`)).body).toMatchObject({
      reason: 'BadRequest',
      code: 400,
    });
    const everywhere = await call('GET', '/apis/apps/v1/deployments?labelSelector=team%3Dx');
    expect(everywhere.body.items.map((i: { metadata: { namespace: string } }) => i.metadata.namespace)).toEqual([
      'lists',
      'lists',
    ]);
    expect(fake.objects('Deployment', 'lists').map((d) => [d.kind, d.metadata.name])).toEqual([
      ['Deployment', 'a'],
      ['Deployment', 'b'],
      ['Deployment', 'c'],
    ]);
  });

  it('kit fake kubernetes: delete answers a Success Status and logs the propagation policy; a Secret folds stringData into data', async () => {
    const secret = await call('POST', SECRETS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      stringData: { token: 'abc' },
    });
    expect(secret.body).toMatchObject({ type: 'Opaque', data: { token: Buffer.from('abc').toString('base64') } });
    expect(secret.body.stringData).toBeUndefined();
    expect(secret.body.metadata.generation).toBeUndefined();

    await call('POST', JOBS, {
      metadata: { name: 'gone' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i:1' }] } } },
    });
    const uid = fake.get('Job', 'ns', 'gone')!.metadata.uid;
    const deleted = await call('DELETE', `${JOBS}/gone?propagationPolicy=Background`);
    expect(deleted).toEqual({
      status: 200,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name: 'gone', group: 'batch', kind: 'jobs', uid },
      },
    });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      resource: 'jobs',
      namespace: 'ns',
      name: 'gone',
      query: { propagationPolicy: 'Background' },
      status: 200,
    });
    expect((await call('DELETE', `${JOBS}/gone`)).status).toBe(404);
  });

  it('kit fake kubernetes: seed, modify, remove and beforeNext stand in for other writers', async () => {
    const seeded = fake.seed({ ...deployment('seeded'), metadata: { name: 'seeded', namespace: 'ns' } });
    expect(seeded.metadata.generation).toBe(1);
    const modified = fake.modify('Deployment', 'ns', 'seeded', (d) => {
      d.spec.replicas = 4;
    });
    expect(modified.metadata.generation).toBe(2);
    fake.beforeNext({ method: 'GET', resource: 'deployments', name: 'seeded' }, () =>
      fake.remove('Deployment', 'ns', 'seeded'),
    );
    expect((await call('GET', `${DEPLOYMENTS}/seeded`)).status).toBe(404);
    expect(fake.remove('Deployment', 'ns', 'seeded')).toBe(false);
  });

  it('kit fake kubernetes: with a token, a request without it is 401', async () => {
    const guarded = await startFakeKubernetes({ token: 'secret-token' });
    try {
      const bare = await fetch(`${guarded.url}${DEPLOYMENTS}`);
      expect(bare.status).toBe(401);
      expect(await bare.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
      const authed = await fetch(`${guarded.url}${DEPLOYMENTS}`, { headers: { authorization: 'Bearer secret-token' } });
      expect(authed.status).toBe(200);
      expect(guarded.kubeconfig('ns')).toMatch(
        /token: secret-token[\s\S]*insecure-skip-tls-verify: true|insecure-skip-tls-verify: true[\s\S]*token: secret-token/,
      );
    } finally {
      await guarded.close();
    }
  });

  it('kit fake kubernetes: label selectors match as the API server does', () => {
    const labels = { app: 'web', tier: 'front' };
    expect(matchesLabelSelector('', labels)).toBe(true);
    expect(matchesLabelSelector('app=web,tier==front', labels)).toBe(true);
    expect(matchesLabelSelector('app=web,tier=back', labels)).toBe(false);
    expect(matchesLabelSelector('app!=api', labels)).toBe(true);
    expect(matchesLabelSelector('missing!=x', labels)).toBe(true);
    expect(matchesLabelSelector('app in (api,web),!missing', labels)).toBe(true);
    expect(matchesLabelSelector('app notin (web)', labels)).toBe(false);
    expect(() => matchesLabelSelector('app=not ok!', labels)).toThrow(/invalid label value/);
  });
});
