import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceView, Transcript } from '../src/schemas/evidence.ts';
import { EDITOR, type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2026-03-02T10:00:00Z' });
});
afterAll(async () => h.close_());

async function meeting(data: Record<string, unknown> = {}): Promise<EvidenceView> {
  const r = await h.call('POST', '/v1/meetings', EDITOR, { data: { source: 'manual', ...data } });
  h.expectStatus('meeting', r, 201);
  return r.data as EvidenceView;
}
async function append(id: string, lines: { speaker: string; text: string }[]) {
  const r = await h.call('POST', `/v1/meetings/${id}/utterances`, EDITOR, { data: { lines } });
  h.expectStatus('append', r, 201);
}
/** Appends n lines "line i" by Ana and Ben in turn, 200 a call. */
async function appendMany(id: string, n: number) {
  for (let from = 1; from <= n; from += 200) {
    const count = Math.min(200, n - from + 1);
    await append(
      id,
      Array.from({ length: count }, (_, i) => ({ speaker: (from + i) % 2 ? 'Ana' : 'Ben', text: `line ${from + i}` })),
    );
  }
}
const transcript = async (id: string, q = ''): Promise<Transcript> => {
  const r = await h.call('GET', `/v1/evidence/${id}/transcript${q}`, EDITOR);
  h.expectStatus('transcript', r, 200);
  return r.data as Transcript;
};
const bodyLines = (t: Transcript) => t.markdown.split('\n').slice(2);

describe('transcript', () => {
  it('19 WS-428 the transcript is markdown: participants, then speaker and text per line', async () => {
    const m = await meeting({ participants: ['Ana', 'Ben'] });
    await append(m.id, [
      { speaker: 'Ana', text: 'Good morning' },
      { speaker: 'Ben', text: 'Morning, shall we look at the refunds?' },
      { speaker: 'Cleo', text: 'I joined late' },
    ]);
    const t = await transcript(m.id, '?format=markdown');
    expect(t.format).toBe('markdown');
    expect(t.markdown).toBe(
      [
        'Participants: Ana, Ben, Cleo',
        '',
        'Ana: Good morning',
        'Ben: Morning, shall we look at the refunds?',
        'Cleo: I joined late',
      ].join('\n'),
    );
    expect(t).toMatchObject({ participants: ['Ana', 'Ben', 'Cleo'], lines: 3, total_lines: 3 });
    expect(t.truncated).toBeUndefined();
    expect((await h.call('GET', `/v1/evidence/${m.id}/transcript?format=html`, EDITOR)).status).toBe(422);
    const empty = await meeting();
    expect((await transcript(empty.id)).markdown).toBe('Participants: none listed\n');
  });

  it('19 WS-429 WS-431 max_lines stops early and truncated names the lines left out', async () => {
    const m = await meeting();
    await appendMany(m.id, 25);
    const t = await transcript(m.id, '?max_lines=10');
    expect(bodyLines(t)).toHaveLength(10);
    expect(bodyLines(t)[9]).toBe('Ben: line 10');
    expect(t).toMatchObject({ lines: 10, total_lines: 25, truncated: { from_line: 11, to_line: 25, count: 15 } });
    const exact = await transcript(m.id, '?max_lines=25');
    expect(bodyLines(exact)).toHaveLength(25);
    expect(exact.truncated).toBeUndefined();
    expect((await h.call('GET', `/v1/evidence/${m.id}/transcript?max_lines=8001`, EDITOR)).status).toBe(422);
    expect((await h.call('GET', `/v1/evidence/${m.id}/transcript?max_lines=-1`, EDITOR)).status).toBe(422);
  });

  it('19 WS-430 WS-431 max_lines=0 means the whole record up to 8000 lines', async () => {
    const m = await meeting();
    await appendMany(m.id, 8050);
    for (const q of ['?max_lines=0', '']) {
      const t = await transcript(m.id, q);
      const lines = bodyLines(t);
      expect(lines).toHaveLength(8000);
      expect(lines[0]).toBe('Ana: line 1');
      expect(lines[7999]).toBe('Ben: line 8000');
      expect(t).toMatchObject({
        lines: 8000,
        total_lines: 8050,
        truncated: { from_line: 8001, to_line: 8050, count: 50 },
      });
    }
    const small = await meeting();
    await appendMany(small.id, 30);
    const whole = await transcript(small.id, '?max_lines=0');
    expect(bodyLines(whole)).toHaveLength(30);
    expect(whole.truncated).toBeUndefined();
  });
});
