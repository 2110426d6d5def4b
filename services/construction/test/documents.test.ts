import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Vendors } from '../src/clients/vendors.ts';
import {
  act,
  approve,
  awardBaseline,
  type DocumentData,
  getDocument,
  milestone,
  project,
  publish,
  publishedDocument,
  type RevisionData,
  registerDocument,
  startRevision,
  task,
} from './fixtures/documents.ts';
import { EDITOR, fid, type Harness, harness, READER, tag } from './harness.ts';

/** Document control (issue 17, spec 3 "Document control"): the register, revisions, publication and links. */

/** The firm the fake vendors service knows (firm links are checked there). */
const FIRM = '0195f3c2-0000-7000-8000-00000000f001';
let h: Harness;
beforeAll(async () => {
  // Only firm() is asked by document links.
  const vendors = {
    firm: async (id: string) => (id === FIRM ? { id, name: 'Acme', status: 'active' as const, contact_ids: [] } : null),
  } as unknown as Vendors;
  h = await harness({ app: { vendors } });
});
afterAll(async () => {
  await h?.close_();
});

const list = async (query: string) => {
  const r = await h.call('GET', `/v1/documents?${query}&pagination[pageSize]=200`, READER);
  expect(r.status).toBe(200);
  return r.data as DocumentData[];
};

describe('the register', () => {
  it('17 CON-103 a registered document appears in GET /v1/documents', async () => {
    const d = await registerDocument(h, { title: 'Ground floor plan' });
    expect(d).toMatchObject({ title: 'Ground floor plan', published: false, current_number: null });
    const rows = await list(`search=${d.code}`);
    expect(rows.map((r) => r.id)).toEqual([d.id]);
    const events = await h.events('document.registered');
    expect(events.map((e) => (e.payload as { data: { document_id: string } }).data.document_id)).toContain(d.id);
  });

  it('17 CON-104 a code another document holds (any case) is 409 code_taken on register and on PUT, nothing written', async () => {
    const a = await registerDocument(h, { code: `ARC-${tag()}` });
    const before = await h.state();
    const again = await h.call('POST', '/v1/documents', EDITOR, {
      data: { code: a.code.toLowerCase(), title: 'Copy', doc_type: 'drawing', discipline: 'architectural' },
    });
    expect([again.status, again.errors[0].code]).toEqual([409, 'code_taken']);
    expect(await h.state()).toEqual(before);
    const b = await registerDocument(h);
    const before2 = await h.state();
    const put = await h.call('PUT', `/v1/documents/${b.id}`, EDITOR, { data: { code: ` ${a.code.toUpperCase()} ` } });
    expect([put.status, put.errors[0].code]).toEqual([409, 'code_taken']);
    expect(await h.state()).toEqual(before2);
    expect((await getDocument(h, b.id)).code).toBe(b.code);
  });

  it('17 CON-104 two concurrent registrations of one code: one is registered, the other 409 code_taken', async () => {
    const code = `RACE-${tag()}`;
    const answers = await Promise.all(
      [code, code.toLowerCase()].map((c) =>
        h.call('POST', '/v1/documents', EDITOR, {
          data: { code: c, title: 't', doc_type: 'drawing', discipline: 'civil' },
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)?.errors[0].code).toBe('code_taken');
    expect(await list(`search=${code}`)).toHaveLength(1);
  });

  it('17 CON-105 CON-106 CON-107 the register filters by doc_type, discipline and owner_fid: every row matches', async () => {
    const t = tag();
    const owner = fid(READER);
    await registerDocument(h, { doc_type: `spec-${t}`, discipline: `mep-${t}`, owner_fid: owner });
    await registerDocument(h, { doc_type: `spec-${t}`, discipline: `civil-${t}` });
    await registerDocument(h, { doc_type: `report-${t}`, discipline: `mep-${t}`, owner_fid: owner });
    const byType = await list(`doc_type=spec-${t}`);
    expect(byType).toHaveLength(2);
    expect(byType.every((r) => r.doc_type === `spec-${t}`)).toBe(true);
    const byDiscipline = await list(`discipline=mep-${t}`);
    expect(byDiscipline).toHaveLength(2);
    expect(byDiscipline.every((r) => r.discipline === `mep-${t}`)).toBe(true);
    const byOwner = await list(`owner_fid=${owner}`);
    expect(byOwner.length).toBeGreaterThanOrEqual(2);
    expect(byOwner.every((r) => r.owner_fid === owner)).toBe(true);
  });

  it('17 CON-108 the register filters by project_id: every row is linked to that project', async () => {
    const p = await project(h);
    const other = await project(h);
    const direct = await registerDocument(h, { project_id: p });
    const viaStage = await registerDocument(h);
    await h.ok(
      'POST',
      `/v1/documents/${viaStage.id}/links`,
      { target_type: 'stage', target_id: p, stage: 'design' },
      201,
    );
    await registerDocument(h, { project_id: other });
    await registerDocument(h);
    const rows = await list(`project_id=${p}`);
    expect(rows.map((r) => r.id).sort()).toEqual([direct.id, viaStage.id].sort());
    for (const r of rows) {
      const d = await getDocument(h, r.id);
      expect(d.links.some((l) => l.project_id === p)).toBe(true);
    }
  });

  it('17 CON-109 the register filters by published: every row matches the flag', async () => {
    const t = tag();
    const pub = await publishedDocument(h, { doc_type: `pub-${t}` });
    const draft = await registerDocument(h, { doc_type: `pub-${t}` });
    await startRevision(h, draft.id);
    const yes = await list(`doc_type=pub-${t}&published=true`);
    expect(yes.map((r) => r.id)).toEqual([pub.id]);
    expect(yes.every((r) => r.published)).toBe(true);
    const no = await list(`doc_type=pub-${t}&published=false`);
    expect(no.map((r) => r.id)).toEqual([draft.id]);
    expect(no.every((r) => !r.published)).toBe(true);
  });

  it('17 CON-110 the register filters by search (code or title, any case): every row matches', async () => {
    const t = tag();
    const byCode = await registerDocument(h, { code: `SRCH-${t}-1` });
    const byTitle = await registerDocument(h, { title: `Facade study srch-${t}` });
    await registerDocument(h);
    const rows = await list(`search=SRCH-${t}`);
    expect(rows.map((r) => r.id).sort()).toEqual([byCode.id, byTitle.id].sort());
    const needle = `srch-${t}`;
    expect(rows.every((r) => `${r.code} ${r.title}`.toLowerCase().includes(needle))).toBe(true);
  });

  it('17 CON-111 GET /v1/documents/{id} carries revisions, trail, links and impacts', async () => {
    const p = await project(h);
    const d = await publishedDocument(h, { project_id: p });
    const r = await h.call('GET', `/v1/documents/${d.id}`, READER);
    expect(r.status).toBe(200);
    const doc = r.data as DocumentData;
    expect(doc.revisions).toEqual([expect.objectContaining({ letter: 'A', number: 1, state: 'published' })]);
    expect(doc.links).toEqual([expect.objectContaining({ target_type: 'project', target_id: p, project_id: p })]);
    expect(doc.impacts).toEqual([expect.objectContaining({ number: 1, revision_id: doc.revisions[0].id })]);
    expect(doc.trail.map((e) => e.action)).toEqual([
      'registered',
      'linked',
      'revision_started',
      'prepared',
      'reviewed',
      'submitted_for_approval',
      'approved',
      'published',
    ]);
    expect(doc.trail.every((e) => e.actor_fid === fid(EDITOR) && e.at)).toBe(true);
    expect(doc).toMatchObject({ current_number: 1, published: true });
    const missing = await h.call('GET', '/v1/documents/00000000-0000-4000-8000-000000000000', READER);
    expect([missing.status, missing.errors[0].code]).toEqual([404, 'document_not_found']);
  });

  it('17 CON-112 PUT /v1/documents/{id} changes the document: GET shows the new values', async () => {
    const d = await registerDocument(h);
    const code = `NEW-${tag()}`;
    await h.ok('PUT', `/v1/documents/${d.id}`, {
      code,
      title: 'Revised title',
      doc_type: 'specification',
      discipline: 'civil',
      owner_fid: fid(READER),
    });
    const got = await getDocument(h, d.id);
    expect(got).toMatchObject({
      code,
      title: 'Revised title',
      doc_type: 'specification',
      discipline: 'civil',
      owner_fid: fid(READER),
    });
    expect(got.trail.map((e) => e.action)).toContain('updated');
    const before = await h.state();
    expect((await h.ok<DocumentData>('PUT', `/v1/documents/${d.id}`, {})).code).toBe(code);
    expect(await h.state()).toEqual({ ...before, idempotency_keys: before.idempotency_keys + 1 });
  });

  it('17 CON-182 CON-183 a reader may read the register but not write it (403), nothing written', async () => {
    const before = await h.state();
    const r = await h.call('POST', '/v1/documents', READER, {
      data: { code: `R-${tag()}`, title: 'x', doc_type: 'drawing', discipline: 'civil' },
    });
    expect(r.status).toBe(403);
    expect(await h.state()).toEqual(before);
    expect((await h.call('GET', '/v1/documents', READER)).status).toBe(200);
  });
});

describe('revisions', () => {
  it('17 CON-113 a new revision is a draft lettered from the current published one', async () => {
    const d = await registerDocument(h);
    const first = await startRevision(h, d.id);
    expect(first).toMatchObject({ letter: 'A', state: 'draft', number: null, based_on_number: null });
    const second = await startRevision(h, d.id);
    expect(second.letter).toBe('B');
    await approve(h, first.id);
    await publish(h, first.id);
    const after = await startRevision(h, d.id);
    expect(after).toMatchObject({ letter: '1A', state: 'draft', based_on_number: 1 });
    const next = await startRevision(h, d.id);
    expect(next.letter).toBe('1B');
  });

  it('17 CON-113 revisions started concurrently get distinct letters', async () => {
    const d = await registerDocument(h);
    const answers = await Promise.all(
      [1, 2, 3].map(() => h.call('POST', `/v1/documents/${d.id}/revisions`, EDITOR, { data: {} })),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(answers.map((r) => r.data.letter).sort()).toEqual(['A', 'B', 'C']);
  });

  it('17 CON-114 started straight_to_review, the revision is in internal review', async () => {
    const d = await registerDocument(h);
    const r = await startRevision(h, d.id, { straight_to_review: true });
    expect(r.state).toBe('internal_review');
  });

  it('17 CON-115 prepared, reviewed, submitted_for_approval, approved and rejected are each accepted and in the trail', async () => {
    const d = await registerDocument(h);
    const r = await startRevision(h, d.id);
    const steps: [string, string][] = [
      ['prepared', 'internal_review'],
      ['reviewed', 'reviewed'],
      ['submitted_for_approval', 'pending_approval'],
      ['rejected', 'rejected'],
      ['prepared', 'internal_review'],
      ['reviewed', 'reviewed'],
      ['submitted_for_approval', 'pending_approval'],
      ['approved', 'approved'],
    ];
    for (const [action, state] of steps) {
      expect((await act(h, r.id, action, `note ${action}`)).state).toBe(state);
    }
    const trail = (await getDocument(h, d.id)).trail.filter(
      (e) => e.revision_id === r.id && e.action !== 'revision_started',
    );
    expect(trail.map((e) => [e.action, e.to_state])).toEqual(steps);
  });

  it('17 CON-116 an action the state does not take is 409 invalid_transition, the revision unchanged', async () => {
    const d = await registerDocument(h);
    const r = await startRevision(h, d.id);
    for (const action of ['reviewed', 'submitted_for_approval', 'approved', 'rejected']) {
      const before = await h.state();
      const res = await h.call('POST', `/v1/document-revisions/${r.id}/actions`, EDITOR, { data: { action } });
      expect([res.status, res.errors[0].code]).toEqual([409, 'invalid_transition']);
      expect(await h.state()).toEqual(before);
    }
    const got = await getDocument(h, d.id);
    expect(got.revisions[0].state).toBe('draft');
    const twice = await Promise.all(
      [1, 2].map(() =>
        h.call('POST', `/v1/document-revisions/${r.id}/actions`, EDITOR, { data: { action: 'prepared' } }),
      ),
    );
    expect(twice.map((x) => x.status).sort()).toEqual([200, 409]);
    expect((await getDocument(h, d.id)).trail.filter((e) => e.action === 'prepared')).toHaveLength(1);
    const unknown = await h.call('POST', `/v1/document-revisions/${r.id}/actions`, EDITOR, {
      data: { action: 'signed' },
    });
    expect([unknown.status, unknown.errors[0].code]).toEqual([422, 'validation_failed']);
  });
});

describe('publication', () => {
  it('17 CON-117 an approved revision is published with the next number', async () => {
    const d = await registerDocument(h);
    const a = await startRevision(h, d.id);
    await approve(h, a.id);
    expect(await publish(h, a.id)).toMatchObject({ state: 'published', number: 1 });
    const b = await startRevision(h, d.id);
    await approve(h, b.id);
    const pb = await publish(h, b.id);
    expect(pb).toMatchObject({ id: b.id, state: 'published', number: 2 });
    expect((await getDocument(h, d.id)).current_number).toBe(2);
  });

  it('17 CON-118 the impacts include the publication with its summary, cost and days', async () => {
    const d = await registerDocument(h);
    const r = await startRevision(h, d.id);
    await approve(h, r.id);
    await publish(h, r.id, { impact: { summary: 'Column grid moved', cost_minor: 250000, days: 5 } });
    const got = await getDocument(h, d.id);
    expect(got.impacts).toEqual([
      expect.objectContaining({
        revision_id: r.id,
        number: 1,
        summary: 'Column grid moved',
        cost_minor: 250000,
        days: 5,
      }),
    ]);
  });

  it('17 CON-119 published with draft_variation, a drafted variation exists for the linked project', async () => {
    const p = await project(h);
    await awardBaseline(h, p);
    const d = await registerDocument(h, { project_id: p });
    const r = await startRevision(h, d.id);
    await approve(h, r.id);
    const pub = await publish(h, r.id, {
      impact: { summary: 'Extra basement', cost_minor: 900000, days: 12 },
      draft_variation: { title: 'Basement extension' },
    });
    expect(pub.variation_id).toMatch(/^[0-9a-f-]{36}$/);
    const v = await h.db
      .selectFrom('variations')
      .selectAll()
      .where('id', '=', pub.variation_id as string)
      .executeTakeFirstOrThrow();
    expect(v).toMatchObject({
      project_id: p,
      status: 'drafted',
      title: 'Basement extension',
      source_revision_id: r.id,
      cost_change_minor: 900000,
      days: 12,
    });
    expect((await getDocument(h, d.id)).impacts[0].variation_id).toBe(pub.variation_id);
    const listed = await h.call('GET', `/v1/variations?project_id=${p}`, READER);
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual([expect.objectContaining({ id: pub.variation_id, status: 'drafted' })]);
  });

  it('17 CON-119 CON-035 a variation needs the award baseline, one linked project and an open project: 409 no_baseline, 422, 409 project_closed, nothing published', async () => {
    const p = await project(h);
    const d = await registerDocument(h, { project_id: p });
    const r = await startRevision(h, d.id);
    await approve(h, r.id);
    let before = await h.state();
    const noBaseline = await h.call('POST', `/v1/document-revisions/${r.id}/publish`, EDITOR, {
      data: { draft_variation: { title: 'V' } },
    });
    expect([noBaseline.status, noBaseline.errors[0].code]).toEqual([409, 'no_baseline']);
    expect(await h.state()).toEqual(before);
    const lone = await registerDocument(h);
    const lr = await startRevision(h, lone.id);
    await approve(h, lr.id);
    before = await h.state();
    const noProject = await h.call('POST', `/v1/document-revisions/${lr.id}/publish`, EDITOR, {
      data: { draft_variation: { title: 'V' } },
    });
    expect([noProject.status, noProject.errors[0].code]).toEqual([422, 'validation_failed']);
    expect(await h.state()).toEqual(before);
    expect((await getDocument(h, lone.id)).revisions[0].state).toBe('approved');
    const closed = await project(h);
    await awardBaseline(h, closed);
    const cd = await registerDocument(h, { project_id: closed });
    const cr = await startRevision(h, cd.id);
    await approve(h, cr.id);
    await h.db.updateTable('development_projects').set({ status: 'cancelled' }).where('id', '=', closed).execute();
    before = await h.state();
    const onClosed = await h.call('POST', `/v1/document-revisions/${cr.id}/publish`, EDITOR, {
      data: { draft_variation: { title: 'V' } },
    });
    expect([onClosed.status, onClosed.errors[0].code]).toEqual([409, 'project_closed']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-120 publishing an unapproved revision is 409 revision_not_approved, nothing published', async () => {
    const d = await registerDocument(h);
    const r = await startRevision(h, d.id);
    await act(h, r.id, 'prepared');
    const before = await h.state();
    const res = await h.call('POST', `/v1/document-revisions/${r.id}/publish`, EDITOR, { data: {} });
    expect([res.status, res.errors[0].code]).toEqual([409, 'revision_not_approved']);
    expect(await h.state()).toEqual(before);
    const got = await getDocument(h, d.id);
    expect(got).toMatchObject({ current_number: null, published: false });
  });

  it('17 CON-121 another revision published since this one started is 409 revision_out_of_date, nothing published', async () => {
    const d = await registerDocument(h);
    const a = await startRevision(h, d.id);
    const b = await startRevision(h, d.id);
    await approve(h, a.id);
    await approve(h, b.id);
    await publish(h, a.id);
    const before = await h.state();
    const res = await h.call('POST', `/v1/document-revisions/${b.id}/publish`, EDITOR, { data: {} });
    expect([res.status, res.errors[0].code]).toEqual([409, 'revision_out_of_date']);
    expect(await h.state()).toEqual(before);
    const got = await getDocument(h, d.id);
    expect(got.revisions.find((r) => r.id === b.id)).toMatchObject({ state: 'approved', number: null });
    expect(got.current_number).toBe(1);
  });

  it('17 CON-117 CON-121 two concurrent publications of revisions started on one number: one is published, the other out of date', async () => {
    const d = await registerDocument(h);
    const a = await startRevision(h, d.id);
    const b = await startRevision(h, d.id);
    await approve(h, a.id);
    await approve(h, b.id);
    const answers = await Promise.all(
      [a, b].map((r) => h.call('POST', `/v1/document-revisions/${r.id}/publish`, EDITOR, { data: {} })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)?.errors[0].code).toBe('revision_out_of_date');
    const got = await getDocument(h, d.id);
    expect(got.revisions.filter((r) => r.state === 'published').map((r) => r.number)).toEqual([1]);
    expect(got.impacts).toHaveLength(1);
  });
});

describe('links', () => {
  it('17 CON-123 a project, a stage, a task, a milestone and a firm are each accepted and listed', async () => {
    const hv = h;
    const firmId = FIRM;
    {
      const p = await project(hv);
      const d = await registerDocument(hv);
      const targets = [
        { target_type: 'project', target_id: p },
        { target_type: 'stage', target_id: p, stage: 'permitting' },
        { target_type: 'task', target_id: await task(hv, p) },
        { target_type: 'milestone', target_id: await milestone(hv, p) },
        { target_type: 'firm', target_id: firmId },
      ];
      for (const t of targets) await hv.ok('POST', `/v1/documents/${d.id}/links`, t, 201);
      const links = (await getDocument(hv, d.id)).links;
      expect(links.map((l) => [l.target_type, l.target_id, l.stage]).sort()).toEqual(
        targets.map((t) => [t.target_type, t.target_id, t.stage ?? null]).sort(),
      );
      expect(links.filter((l) => l.target_type !== 'firm').every((l) => l.project_id === p)).toBe(true);
      const unknownFirm = await hv.call('POST', `/v1/documents/${d.id}/links`, EDITOR, {
        data: { target_type: 'firm', target_id: '0195f3c2-0000-7000-8000-00000000f002' },
      });
      expect([unknownFirm.status, unknownFirm.errors[0].code]).toEqual([404, 'vendor_not_found']);
      const badType = await hv.call('POST', `/v1/documents/${d.id}/links`, EDITOR, {
        data: { target_type: 'package', target_id: p },
      });
      expect([badType.status, badType.errors[0].code]).toEqual([422, 'validation_failed']);
    }
  });

  it('17 CON-034 a closed project takes no more document links: 409 project_closed, nothing written', async () => {
    const p = await project(h, 'completed');
    const d = await registerDocument(h);
    const before = await h.state();
    const r = await h.call('POST', `/v1/documents/${d.id}/links`, EDITOR, {
      data: { target_type: 'project', target_id: p },
    });
    expect([r.status, r.errors[0].code]).toEqual([409, 'project_closed']);
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-124 DELETE /v1/documents/{id}/links/{linkId} removes the link: no longer listed', async () => {
    const p = await project(h);
    const d = await registerDocument(h, { project_id: p });
    const stage = await h.ok<{ id: string }>(
      'POST',
      `/v1/documents/${d.id}/links`,
      { target_type: 'stage', target_id: p, stage: 'design' },
      201,
    );
    const removed = await h.ok<{ id: string }>('DELETE', `/v1/documents/${d.id}/links/${stage.id}`, undefined);
    expect(removed.id).toBe(stage.id);
    const got = await getDocument(h, d.id);
    expect(got.links.map((l) => l.id)).not.toContain(stage.id);
    expect(got.links).toHaveLength(1);
    expect(got.trail.map((e) => e.action)).toContain('unlinked');
    const again = await h.call('DELETE', `/v1/documents/${d.id}/links/${stage.id}`, EDITOR);
    expect([again.status, again.errors[0].code]).toEqual([404, 'link_not_found']);
  });
});

export type { RevisionData };
