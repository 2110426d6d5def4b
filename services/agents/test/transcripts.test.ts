import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentData, type Harness, harness, STRANGER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const HARNESS = { service: null } as const;
type Review = { id: string; record_id: string; sequence: number; meeting_date: string; summary: string | null };

const post = (a: AgentData, data: Record<string, unknown>, key?: string) =>
  h.call('POST', `/v1/agents/${a.id}/transcript-reviews`, HARNESS, { data }, key);
const review = (record_id: string, sequence: number, meeting_date = '2026-02-10', source_version = 'v1') => ({
  record_id,
  source_version,
  sequence,
  meeting_date,
});

describe('transcript reviews', () => {
  it('18 AGT-211 a repeated POST (any key) returns the same review and stores no second one', async () => {
    const a = await h.agent();
    const first = await post(a, { ...review('rec-1', 0), summary: 'Budget approved' });
    expect(first.status).toBe(200);
    expect(first.data.created).toBe(true);
    const countBefore = (await h.state()).transcript_reviews;
    const again = await post(a, { ...review('rec-1', 0), summary: 'Another summary' });
    expect(again.status).toBe(200);
    expect(again.data.created).toBe(false);
    expect(again.data.review).toEqual(first.data.review);
    expect((await h.state()).transcript_reviews).toBe(countBefore);
    const [x, y] = await Promise.all([post(a, review('rec-1', 1)), post(a, review('rec-1', 1))]);
    expect(x.data.review.id).toBe(y.data.review.id);
    expect([x.data.created, y.data.created].sort()).toEqual([false, true]);
    expect((await h.state()).transcript_reviews).toBe(countBefore + 1);
  });

  it('18 AGT-212 a window longer than 31 days (or ending before it starts) is 422 window_too_long', async () => {
    const a = await h.agent();
    const ok = await h.call('GET', `/v1/agents/${a.id}/transcript-reviews?from=2026-01-01&to=2026-01-31`, HARNESS);
    expect(ok.status).toBe(200);
    for (const q of [
      'from=2026-01-01&to=2026-02-01',
      'from=2026-02-01&to=2026-01-31',
      'from=2025-01-01&to=2026-01-01',
    ]) {
      const r = await h.call('GET', `/v1/agents/${a.id}/transcript-reviews?${q}`, HARNESS);
      expect(r.status).toBe(422);
      expect(r.body.payload.errors[0].code).toBe('window_too_long');
    }
  });

  it('18 AGT-213 pages hold at most five rows; after and before bracket the pages both ways', async () => {
    const a = await h.agent();
    for (let i = 0; i < 12; i++) {
      const day = String(1 + i).padStart(2, '0');
      expect((await post(a, review(`rec-${i}`, 0, `2026-01-${day}`))).status).toBe(200);
    }
    const base = `/v1/agents/${a.id}/transcript-reviews?from=2026-01-01&to=2026-01-31`;
    expect((await h.call('GET', `${base}&limit=6`, HARNESS)).status).toBe(422);
    const pages: Review[][] = [];
    let r = await h.call('GET', base, HARNESS);
    const seen: string[] = [];
    for (;;) {
      const rows = r.data as Review[];
      expect(rows.length).toBeLessThanOrEqual(5);
      pages.push(rows);
      seen.push(...rows.map((x) => x.meeting_date));
      const next = r.body.payload.meta.pagination.nextCursor;
      if (!next) break;
      r = await h.call('GET', `${base}&after=${next}`, HARNESS);
    }
    expect(pages.map((p) => p.length)).toEqual([5, 5, 2]);
    expect(seen).toEqual([...seen].sort().reverse());
    expect(new Set(seen).size).toBe(12);
    // Back from the last page: before gives the page before it, in the same order.
    const prev = r.body.payload.meta.pagination.prevCursor;
    const back = await h.call('GET', `${base}&before=${prev}`, HARNESS);
    expect(back.data.map((x: Review) => x.id)).toEqual(pages[1]?.map((x) => x.id));
    const first = await h.call('GET', `${base}&before=${back.body.payload.meta.pagination.prevCursor}`, HARNESS);
    expect(first.data.map((x: Review) => x.id)).toEqual(pages[0]?.map((x) => x.id));
    expect(first.body.payload.meta.pagination.prevCursor).toBeNull();
    const narrowed = await h.call('GET', `${base}&record_id=rec-3`, HARNESS);
    expect(narrowed.data.map((x: Review) => x.record_id)).toEqual(['rec-3']);
  });

  it('18 AGT-214 progress counts the contiguous sequences of exactly one record and version, up to the first gap', async () => {
    const a = await h.agent();
    for (const s of [0, 1, 2, 4, 5]) await post(a, review('rec-p', s));
    for (const s of [3]) await post(a, review('rec-p', s, '2026-02-10', 'v2'));
    for (const s of [3]) await post(a, review('rec-other', s));
    const url = (record: string, version: string) =>
      `/v1/agents/${a.id}/transcript-progress?record_id=${record}&source_version=${version}`;
    const v1 = await h.call('GET', url('rec-p', 'v1'), HARNESS);
    expect(v1.data).toMatchObject({ contiguous: 3, reviewed_through: 2, next_sequence: 3, reviewed: 5 });
    const v2 = await h.call('GET', url('rec-p', 'v2'), HARNESS);
    expect(v2.data).toMatchObject({ contiguous: 0, reviewed_through: null, next_sequence: 0, reviewed: 1 });
    await post(a, review('rec-p', 3));
    const filled = await h.call('GET', url('rec-p', 'v1'), HARNESS);
    expect(filled.data).toMatchObject({ contiguous: 6, reviewed_through: 5, next_sequence: 6, reviewed: 6 });
    const none = await h.call('GET', url('rec-none', 'v1'), HARNESS);
    expect(none.data).toMatchObject({ contiguous: 0, reviewed: 0 });
  });

  it('18 AGT-327 reviews of an agent the caller cannot see are 404 and a refused POST writes nothing', async () => {
    const a = await h.agent();
    expect(
      (await h.call('GET', `/v1/agents/${a.id}/transcript-reviews?from=2026-01-01&to=2026-01-02`, STRANGER)).status,
    ).toBe(404);
    expect(
      (await h.call('GET', `/v1/agents/${a.id}/transcript-progress?record_id=r&source_version=v`, STRANGER)).status,
    ).toBe(404);
    const before = await h.state();
    const r = await h.call('POST', `/v1/agents/${a.id}/transcript-reviews`, STRANGER, { data: review('r', 0) });
    expect(r.status).toBe(404);
    expect(await h.state()).toEqual(before);
  });
});
