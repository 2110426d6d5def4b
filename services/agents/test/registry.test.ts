import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESSES, TOOLS } from '../src/domain/harnesses.ts';
import { type Harness, harness, STRANGER } from './harness.ts';

/** The harness and tool registry (spec 3: GET /v1/harnesses, GET /v1/tools), read by any staff caller. */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close_());

type ToolRow = { name: string; family: string; description: string; schema: object; always_granted: boolean };

describe('harness and tool registry', () => {
  it('18 AGT-248 GET /v1/harnesses answers every harness with allows_skills, permitted tools, features and always_granted', async () => {
    const r = await h.call('GET', '/v1/harnesses', STRANGER);
    expect(r.status).toBe(200);
    expect(r.data.map((x: { id: string }) => x.id)).toEqual(HARNESSES.map((x) => x.id));
    for (const row of r.data) {
      expect(typeof row.allows_skills).toBe('boolean');
      expect(Array.isArray(row.tools)).toBe(true);
      expect(Array.isArray(row.features)).toBe(true);
      expect(Array.isArray(row.always_granted)).toBe(true);
    }
    expect(r.data[0]).toMatchObject({ id: 'platform', allows_skills: true, always_granted: ['remember', 'recall'] });
    expect(r.data.find((x: { id: string }) => x.id === 'coder').features).toContain('repo_scope');
  });

  it('18 AGT-249 GET /v1/tools answers the catalog, each tool with name, family, description and schema', async () => {
    const r = await h.call('GET', '/v1/tools');
    expect(r.status).toBe(200);
    const rows = r.data as ToolRow[];
    expect(rows.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of rows) {
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.family.length).toBeGreaterThan(0);
      expect(t.description.length).toBeGreaterThan(0);
      expect(t.schema).toMatchObject({ type: 'object' });
    }
  });

  it('18 AGT-250 harness_id narrows the catalog to that harness’s tools; an unknown one is 422 harness_not_found', async () => {
    for (const hn of HARNESSES) {
      const r = await h.call('GET', `/v1/tools?harness_id=${hn.id}`);
      expect(r.status).toBe(200);
      expect((r.data as ToolRow[]).map((t) => t.name).sort()).toEqual([...hn.tools].sort());
    }
    const unknown = await h.call('GET', '/v1/tools?harness_id=nope');
    expect([unknown.status, unknown.errors[0].code]).toEqual([422, 'harness_not_found']);
  });

  it('18 AGT-251 always_granted: true marks remember and recall on the first harness, and no other tool', async () => {
    const first = HARNESSES[0]?.id;
    const r = await h.call('GET', `/v1/tools?harness_id=${first}`);
    const granted = (r.data as ToolRow[]).filter((t) => t.always_granted).map((t) => t.name);
    expect(granted.sort()).toEqual(['recall', 'remember']);
    const all = await h.call('GET', '/v1/tools');
    expect(
      (all.data as ToolRow[])
        .filter((t) => t.always_granted)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['recall', 'remember']);
    const coder = await h.call('GET', '/v1/tools?harness_id=coder');
    expect((coder.data as ToolRow[]).some((t) => t.always_granted)).toBe(false);
  });
});
