import { randomUUID } from 'node:crypto';
import { type App, type Azurite, BlobStorage, startAzurite } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN as BROKER_SERVICE_TOKEN } from '../../broker/test/harness.ts';
import { type RelayHarness, relayHarness } from '../../broker/test/relay-setup.ts';
import { buildApp as buildDocuments } from '../../documents/src/app.ts';
import { MIGRATIONS as DOCUMENT_MIGRATIONS } from '../../documents/src/migrations.ts';
import type { DB as DocumentsDB } from '../../documents/src/store/db.ts';
import { testCatalog } from '../../documents/test/harness.ts';
import { BrokerModelClient } from '../src/clients/broker.ts';
import { HttpCommunications } from '../src/clients/communications.ts';
import { HttpDocuments } from '../src/clients/documents.ts';
import { type FakeCommunications, startFakeCommunications } from './fakes/communications.ts';
import { EDITOR, type Harness, harness, OUTSIDER, OWNER, SERVICE_TOKEN, tag, VIEWER } from './harness.ts';

/**
 * Customer presentations (WS-281..WS-287) against the real documents service (its app on a port,
 * its own database, an in-memory Azurite) and the real broker app in front of the fake provider;
 * the communications service is the local fake speaking the contract in docs/decisions.md. The
 * broker and documents can be taken "down": their clients are then sent to a closed port.
 */
let h: Harness;
let azurite: Azurite;
let documents: App;
let closeDocuments: () => Promise<void>;
let broker: RelayHarness;
let comms: FakeCommunications;
let documentsUrl = '';
const down = { documents: false, broker: false };
/** A port nothing listens on: a service that is down. */
const DEAD = 'http://127.0.0.1:9';

/** A fetch that, while `down[which]`, sends the same request to a closed port. */
const switchable =
  (which: keyof typeof down): typeof fetch =>
  (input, init) => {
    if (!down[which]) return fetch(input, init);
    const u = new URL(String(input instanceof Request ? input.url : input));
    return fetch(`${DEAD}${u.pathname}`, init);
  };

let documentsClient: HttpDocuments;
/** Harnesses built by single tests, closed with the rest. */
const extra: Harness[] = [];
let modelClient: BrokerModelClient;

beforeAll(async () => {
  azurite = await startAzurite({ port: 0 });
  const storage = new BlobStorage(testCatalog(azurite.blobEndpoint));
  await storage.ensureContainers();
  const database = await testDatabase<DocumentsDB>('documents', DOCUMENT_MIGRATIONS);
  documents = (await buildDocuments({ database, storage, logLevel: 'silent' })) as App;
  await documents.listen({ port: 0, host: '127.0.0.1' });
  documentsUrl = `http://127.0.0.1:${(documents.server.address() as { port: number }).port}`;
  closeDocuments = async () => {
    await documents.close();
    await database.drop();
  };
  broker = await relayHarness();
  comms = await startFakeCommunications({ serviceToken: SERVICE_TOKEN });
  documentsClient = new HttpDocuments({
    baseUrl: documentsUrl,
    serviceToken: SERVICE_TOKEN,
    storageAccount: 'local',
    timeoutMs: 5_000,
    fetch: switchable('documents'),
  });
  modelClient = new BrokerModelClient({
    baseUrl: broker.url,
    serviceToken: BROKER_SERVICE_TOKEN,
    timeoutMs: 10_000,
    fetch: switchable('broker'),
  });
  h = await harness({
    app: {
      documents: documentsClient,
      model: modelClient,
      communications: new HttpCommunications({ baseUrl: comms.url, serviceToken: SERVICE_TOKEN }),
    },
  });
}, 120_000);
afterAll(async () => {
  for (const x of extra) await x.close_();
  await h?.close_();
  await comms?.close();
  await broker?.close();
  await closeDocuments?.();
  await azurite?.close();
});

const OUTLINE = [
  { title: 'Renewal pricing', notes: 'Three percent, fixed for two years' },
  { title: 'Service levels', notes: 'Response within four hours' },
];
const SOURCES = [{ title: 'Pricing sheet', reference: 'https://docs.example/pricing' }];

const base = (projectId: string) => `/v1/projects/${projectId}/presentations`;

async function created(projectId: string, data: Record<string, unknown> = {}) {
  const r = await h.call('POST', base(projectId), EDITOR, {
    data: { title: `Lease renewal ${tag()}`, outline: OUTLINE, sources: SOURCES, ...data },
  });
  h.expectStatus('presentation', r, 201);
  return r.data as { id: string; title: string };
}

const post = (projectId: string, id: string, action: string, data?: unknown, as = EDITOR, key?: string) =>
  h.call('POST', `${base(projectId)}/${id}/${action}`, as, data === undefined ? {} : { data }, key);

const read = (projectId: string, id: string, as = VIEWER) => h.call('GET', `${base(projectId)}/${id}`, as);

/** GET .../file: the raw answer (bytes and headers). */
const file = (projectId: string, id: string, revision?: number, as = VIEWER) =>
  h.app.inject({
    method: 'GET',
    url: `${base(projectId)}/${id}/file${revision === undefined ? '' : `?revision=${revision}`}`,
    headers: { 'x-dev-principal': as },
  });

/** The presentation events of one presentation, in commit order: [type, payload]. */
const eventsOf = async (presentationId: string) =>
  (await h.events())
    .map(
      (e) => [e.event_type.replace(/^workspace\./, ''), (e.payload as { data: Record<string, unknown> }).data] as const,
    )
    .filter(([, data]) => data?.presentationId === presentationId);

describe('customer presentations', () => {
  it('16 WS-281 POST creates a presentation (201) with outline and sources; GET lists (200) and reads one; viewers read, not write', async () => {
    const p = await h.team();
    const r = await h.call('POST', base(p.id), EDITOR, {
      data: { title: '  Lease renewal  ', outline: OUTLINE, sources: SOURCES },
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: p.id,
      title: 'Lease renewal',
      outline: OUTLINE,
      sources: SOURCES,
      latest_revision: 0,
      shared_revision: null,
    });
    // A second one a second later: the list is newest first.
    h.setNow('2025-06-16T15:00:01Z');
    let second: { id: string };
    try {
      second = await created(p.id, { sources: undefined });
    } finally {
      h.setNow('2025-06-16T15:00:00Z');
    }
    const list = await h.call('GET', base(p.id), VIEWER);
    expect(list.status).toBe(200);
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([second.id, r.data.id]);
    expect(list.data[0].sources).toEqual([]);
    const one = await read(p.id, r.data.id);
    expect(one.status).toBe(200);
    expect(one.data).toMatchObject({ id: r.data.id, title: 'Lease renewal', revisions: [] });
    expect(await eventsOf(r.data.id)).toEqual([
      ['project.presentation_created', { projectId: p.id, presentationId: r.data.id, actor: expect.any(String) }],
    ]);
    // Viewers may not create; outsiders do not see the project; another project's id is 404.
    const v = await h.call('POST', base(p.id), VIEWER, { data: { title: 'No', outline: OUTLINE } });
    expect(v.status).toBe(403);
    expect((await h.call('GET', base(p.id), OUTSIDER)).status).toBe(404);
    const other = await h.team();
    const wrong = await read(other.id, r.data.id, OWNER);
    expect([wrong.status, wrong.errors[0].code]).toEqual([404, 'presentation_not_found']);
  });

  it('16 WS-281 bad input is 4xx with nothing written', async () => {
    const p = await h.team();
    const before = {
      presentations: await h.count('presentations'),
      revisions: await h.count('presentation_revisions'),
      events: (await h.events()).length,
    };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ title: '   ', outline: OUTLINE }, 422, 'invalid_presentation_title'],
      [{ title: 'T', outline: [] }, 422, 'invalid_outline'],
      [{ title: 'T', outline: Array.from({ length: 21 }, (_, i) => ({ title: `S${i}` })) }, 422, 'invalid_outline'],
      [{ title: 'T', outline: [{ title: ' ' }] }, 422, 'invalid_outline'],
      [{ title: 'T', outline: OUTLINE, sources: [{ title: 'S', reference: 'has spaces' }] }, 422, 'invalid_sources'],
      [{ title: 'T', outline: OUTLINE, colour: 'red' }, 422, 'validation_failed'],
    ];
    for (const [data, status, code] of cases) {
      const r = await h.call('POST', base(p.id), EDITOR, { data });
      expect([r.status, r.errors[0].code], JSON.stringify(data)).toEqual([status, code]);
    }
    const pres = await created(p.id);
    const revs = await post(p.id, pres.id, 'revisions', { slides: [] });
    expect([revs.status, revs.errors[0].code]).toEqual([422, 'invalid_slides']);
    const share = await post(p.id, pres.id, 'share', { recipients: ['not an email'] });
    expect([share.status, share.errors[0].code]).toEqual([422, 'invalid_recipients']);
    const unknown = await post(p.id, randomUUID(), 'build');
    expect([unknown.status, unknown.errors[0].code]).toEqual([404, 'presentation_not_found']);
    expect(await h.count('presentations')).toBe(before.presentations + 1);
    expect(await h.count('presentation_revisions')).toBe(before.revisions);
    expect((await read(p.id, pres.id)).data.revisions).toEqual([]);
    expect(comms.requests.filter((q) => q.body.data.presentation_id === pres.id)).toEqual([]);
    // Only the one good create wrote events.
    expect((await h.events()).length).toBe(before.events + 1);
  });

  it('16 WS-282 build renders the outline: a rendered revision whose file holds the model’s text (fake provider, real broker)', async () => {
    const p = await h.team();
    const pres = await created(p.id);
    const calls = broker.fake.requests.length;
    const r = await post(p.id, pres.id, 'build');
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      presentation_id: pres.id,
      revision: 1,
      origin: 'build',
      status: 'rendered',
      failure_reason: null,
      attempts: 1,
      content_type: 'text/html; charset=utf-8',
      shared: false,
    });
    expect(r.data.document_id).toMatch(/^[0-9a-f-]{36}$/);
    // One chat completion per slide went through the broker to the provider, with the slide's outline.
    const sent = broker.fake.requests.slice(calls).map((q) => JSON.stringify(q.json));
    expect(sent).toHaveLength(2);
    expect(sent.some((s) => s.includes('Renewal pricing') && s.includes('Three percent'))).toBe(true);
    // The slides are the provider's text: "<model> heard: <the prompt's first words>".
    expect(r.data.slides).toEqual([
      {
        title: 'Renewal pricing',
        body: expect.stringContaining('heard: Write one customer slide. Slide: Renewal pricing.'),
      },
      {
        title: 'Service levels',
        body: expect.stringContaining('heard: Write one customer slide. Slide: Service levels.'),
      },
    ]);
    const f = await file(p.id, pres.id, 1);
    expect(f.statusCode).toBe(200);
    expect(f.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = f.body;
    expect(html).toContain('<!DOCTYPE html>');
    expect(html).toContain(r.data.slides[0].body);
    expect(html).toContain(r.data.slides[1].body);
    expect(html).toContain('https://docs.example/pricing');
    expect(f.rawPayload.length).toBe(r.data.size_bytes);
    // The document is in the documents service, referenced by the project.
    const doc = await documents.inject({ method: 'GET', url: `/v1/documents/${r.data.document_id}` });
    expect(doc.json().payload.data).toMatchObject({ byte_size: r.data.size_bytes });
    expect((await read(p.id, pres.id)).data).toMatchObject({ latest_revision: 1, revisions: [{ revision: 1 }] });
    expect((await eventsOf(pres.id)).map(([t]) => t)).toEqual([
      'project.presentation_created',
      'project.presentation_revised',
      'project.presentation_rendered',
    ]);
    // A viewer may not build.
    expect((await post(p.id, pres.id, 'build', undefined, VIEWER)).status).toBe(403);
  });

  it('16 WS-282 a retried build with the same Idempotency-Key lands once', async () => {
    const p = await h.team();
    const pres = await created(p.id);
    const key = randomUUID();
    const first = await post(p.id, pres.id, 'build', undefined, EDITOR, key);
    expect(first.status).toBe(201);
    const calls = broker.fake.requests.length;
    const again = await post(p.id, pres.id, 'build', undefined, EDITOR, key);
    expect(again.status).toBe(201);
    expect(again.data).toEqual(first.data);
    // The replay rendered nothing and asked no model.
    expect(broker.fake.requests.length).toBe(calls);
    const one = await read(p.id, pres.id);
    expect(one.data.latest_revision).toBe(1);
    expect(one.data.revisions).toHaveLength(1);
  });

  it('16 WS-283 POST .../revisions edits the slides: a new revision results and older revisions stay readable', async () => {
    const p = await h.team();
    const pres = await created(p.id);
    const built = await post(p.id, pres.id, 'build');
    const edited = await post(p.id, pres.id, 'revisions', {
      slides: [
        { title: ' Renewal pricing ', body: 'Three percent.\n\nFixed for <two> years.' },
        { title: 'Next steps', body: 'Sign by Friday' },
      ],
    });
    expect(edited.status).toBe(201);
    expect(edited.data).toMatchObject({
      revision: 2,
      origin: 'edit',
      status: 'rendered',
      slides: [
        { title: 'Renewal pricing', body: 'Three percent.\n\nFixed for <two> years.' },
        { title: 'Next steps', body: 'Sign by Friday' },
      ],
    });
    const one = await read(p.id, pres.id);
    expect(one.data.latest_revision).toBe(2);
    expect(one.data.revisions.map((r: { revision: number }) => r.revision)).toEqual([2, 1]);
    expect(one.data.revisions[1].slides).toEqual(built.data.slides);
    // Revision 2's file holds the edit (escaped); revision 1's still the model's text.
    const f2 = await file(p.id, pres.id, 2);
    expect(f2.body).toContain('<p>Fixed for &lt;two&gt; years.</p>');
    expect(f2.body).toContain('Next steps');
    const f1 = await file(p.id, pres.id, 1);
    expect(f1.body).toContain(built.data.slides[0].body);
    expect(f1.body).not.toContain('Next steps');
    expect((await eventsOf(pres.id)).filter(([t]) => t === 'project.presentation_revised').map(([, e]) => e)).toEqual([
      expect.objectContaining({ revision: 1, origin: 'build', status: 'rendered' }),
      expect.objectContaining({ revision: 2, origin: 'edit', status: 'rendered' }),
    ]);
  });

  it('16 WS-284 documents down: the build leaves the revision failed with its reason (no 5xx); resume renders it again', async () => {
    const p = await h.team();
    const pres = await created(p.id);
    down.documents = true;
    let failed: Awaited<ReturnType<typeof post>>;
    try {
      failed = await post(p.id, pres.id, 'build');
    } finally {
      down.documents = false;
    }
    expect(failed.status).toBe(201);
    expect(failed.data).toMatchObject({ revision: 1, status: 'failed', document_id: null, attempts: 1 });
    expect(failed.data.failure_reason).toMatch(/^The documents service failed: /);
    // The model had written the slides: they are kept.
    expect(failed.data.slides).toHaveLength(2);
    const nofile = await file(p.id, pres.id, 1);
    expect([nofile.statusCode, nofile.json().payload.errors[0].code]).toEqual([
      409,
      'presentation_revision_not_rendered',
    ]);
    const calls = broker.fake.requests.length;
    const resumed = await post(p.id, pres.id, 'resume');
    expect(resumed.status).toBe(200);
    expect(resumed.data).toMatchObject({ revision: 1, status: 'rendered', failure_reason: null, attempts: 2 });
    expect(resumed.data.slides).toEqual(failed.data.slides);
    // The slides were there: the model was not asked again.
    expect(broker.fake.requests.length).toBe(calls);
    const f = await file(p.id, pres.id, 1);
    expect(f.statusCode).toBe(200);
    expect(f.body).toContain(failed.data.slides[0].body);
    expect((await eventsOf(pres.id)).map(([t]) => t)).toEqual([
      'project.presentation_created',
      'project.presentation_revised',
      'project.presentation_render_failed',
      'project.presentation_rendered',
    ]);
    // Its latest revision rendered: resume again is 409.
    const again = await post(p.id, pres.id, 'resume');
    expect([again.status, again.errors[0].code]).toEqual([409, 'presentation_render_not_failed']);
  });

  it('16 WS-284 broker down: the build fails with the broker’s reason and no slides; resume asks the model again and renders', async () => {
    const p = await h.team();
    const pres = await created(p.id);
    const none = await post(p.id, pres.id, 'resume');
    expect([none.status, none.errors[0].code]).toEqual([409, 'presentation_render_not_failed']);
    down.broker = true;
    let failed: Awaited<ReturnType<typeof post>>;
    try {
      failed = await post(p.id, pres.id, 'build');
    } finally {
      down.broker = false;
    }
    expect(failed.status).toBe(201);
    expect(failed.data).toMatchObject({ revision: 1, status: 'failed', slides: null });
    expect(failed.data.failure_reason).toMatch(/^The model broker failed: /);
    const calls = broker.fake.requests.length;
    const resumed = await post(p.id, pres.id, 'resume');
    expect(resumed.status).toBe(200);
    expect(resumed.data).toMatchObject({ revision: 1, status: 'rendered', attempts: 2 });
    expect(broker.fake.requests.length).toBe(calls + 2);
    const f = await file(p.id, pres.id);
    expect(f.statusCode).toBe(200);
    expect(f.body).toContain(resumed.data.slides[1].body);
  });

  it('16 WS-285 share pins a revision through the communications service: it reads shared', async () => {
    const p = await h.team();
    const pres = await created(p.id);
    await post(p.id, pres.id, 'build');
    const second = await post(p.id, pres.id, 'revisions', { slides: [{ title: 'Only', body: 'One slide' }] });
    expect(second.status).toBe(201);
    const before = comms.requests.length;
    const key = randomUUID();
    const r = await post(
      p.id,
      pres.id,
      'share',
      { revision: 1, recipients: ['Buyer@Customer.example'], message: 'As discussed' },
      EDITOR,
      key,
    );
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ revision: 1, shared: true, status: 'rendered' });
    // The fake received the call: the service token, on behalf of the editor, the revision's document.
    const got = comms.requests.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].headers['x-platform-service-token']).toBe(SERVICE_TOKEN);
    expect(got[0].headers['x-platform-on-behalf-of']).toBe(EDITOR);
    expect(got[0].headers['idempotency-key']).toBe(`workspace-presentation-share-${pres.id}-${key}`);
    expect(got[0].body.data).toEqual({
      presentation_id: pres.id,
      project_id: p.id,
      revision: 1,
      title: pres.title,
      document_id: (await read(p.id, pres.id)).data.revisions[1].document_id,
      content_type: 'text/html; charset=utf-8',
      recipients: ['buyer@customer.example'],
      message: 'As discussed',
    });
    const one = await read(p.id, pres.id);
    expect(one.data).toMatchObject({ shared_revision: 1, share_id: expect.stringMatching(/^share-/) });
    expect(one.data.revisions.map((x: { revision: number; shared: boolean }) => [x.revision, x.shared])).toEqual([
      [2, false],
      [1, true],
    ]);
    // Without ?revision the file is the shared revision's.
    const f = await file(p.id, pres.id);
    expect(f.headers['x-presentation-revision']).toBe('1');
    // The same key again lands once: no second call, no second event.
    const replay = await post(
      p.id,
      pres.id,
      'share',
      { revision: 1, recipients: ['Buyer@Customer.example'], message: 'As discussed' },
      EDITOR,
      key,
    );
    expect(replay.status).toBe(200);
    expect(comms.requests.length).toBe(before + 1);
    expect((await eventsOf(pres.id)).filter(([t]) => t === 'project.presentation_shared')).toEqual([
      [
        'project.presentation_shared',
        {
          projectId: p.id,
          presentationId: pres.id,
          revision: 1,
          shareId: one.data.share_id,
          actor: expect.any(String),
        },
      ],
    ]);
    // A viewer may not share; the communications service failing is 503 with nothing written.
    expect((await post(p.id, pres.id, 'share', { recipients: ['a@b.example'] }, VIEWER)).status).toBe(403);
    const state = await h.state();
    comms.failWith = 500;
    try {
      const failing = await post(p.id, pres.id, 'share', { revision: 2, recipients: ['a@b.example'] });
      expect([failing.status, failing.errors[0].code]).toEqual([503, 'communications_unavailable']);
    } finally {
      comms.failWith = undefined;
    }
    expect(await h.state()).toEqual(state);
    // Sharing revision 2 moves the pin.
    const moved = await post(p.id, pres.id, 'share', { recipients: ['a@b.example'] });
    expect(moved.data).toMatchObject({ revision: 2, shared: true });
    expect((await read(p.id, pres.id)).data.revisions.map((x: { shared: boolean }) => x.shared)).toEqual([true, false]);
  });

  it('16 WS-286 share without a configured communications service is 503 communications_not_configured, nothing written', async () => {
    const bare = await harness({ app: { documents: documentsClient, model: modelClient } });
    extra.push(bare);
    {
      const p = await bare.team();
      const c = await bare.call('POST', base(p.id), EDITOR, { data: { title: 'Unshared', outline: OUTLINE } });
      const id = c.data.id as string;
      const built = await bare.call('POST', `${base(p.id)}/${id}/build`, EDITOR, {});
      expect(built.data.status).toBe('rendered');
      const before = { state: await bare.state(), comms: comms.requests.length };
      const r = await bare.call('POST', `${base(p.id)}/${id}/share`, EDITOR, { data: { recipients: ['a@b.example'] } });
      expect([r.status, r.errors[0].code]).toEqual([503, 'communications_not_configured']);
      expect(await bare.state()).toEqual(before.state);
      expect(comms.requests.length).toBe(before.comms);
      const one = await bare.call('GET', `${base(p.id)}/${id}`, VIEWER);
      expect(one.data).toMatchObject({ shared_revision: null, revisions: [{ shared: false }] });
    }
  });

  it('16 WS-287 GET .../file returns one revision’s file (200, its bytes and content type); errors name what is missing', async () => {
    const p = await h.team();
    const pres = await created(p.id);
    const none = await file(p.id, pres.id);
    expect([none.statusCode, none.json().payload.errors[0].code]).toEqual([409, 'presentation_revision_not_rendered']);
    await post(p.id, pres.id, 'build');
    const r2 = await post(p.id, pres.id, 'revisions', { slides: [{ title: 'Second', body: 'Revision two' }] });
    const f2 = await file(p.id, pres.id, 2);
    expect(f2.statusCode).toBe(200);
    expect(f2.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(f2.headers['x-presentation-revision']).toBe('2');
    expect(f2.rawPayload.length).toBe(r2.data.size_bytes);
    expect(f2.body).toContain('Revision two');
    // Without ?revision and nothing shared: the latest rendered.
    expect((await file(p.id, pres.id)).body).toBe(f2.body);
    const f1 = await file(p.id, pres.id, 1);
    expect(f1.body).not.toContain('Revision two');
    const missing = await file(p.id, pres.id, 3);
    expect([missing.statusCode, missing.json().payload.errors[0].code]).toEqual([
      404,
      'presentation_revision_not_found',
    ]);
    expect((await file(p.id, pres.id, 1, OUTSIDER)).statusCode).toBe(404);
  });
});
