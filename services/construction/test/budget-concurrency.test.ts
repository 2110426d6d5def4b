import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newProject, projectUrl } from './fixtures/plan-items.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const CATEGORIES = ['construction', 'design', 'contingency', 'legal'];

describe('budget figures cannot drift', () => {
  it('17 1,000 concurrent cost events and line changes leave each line equal to the sum of its events and the totals equal to the sum of lines', async () => {
    const projects = [await newProject(h), await newProject(h)];
    let seed = 17;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const expected = new Map<string, { budget: number; committed: number; actual: number }>();
    const requests: (() => ReturnType<Harness['call']>)[] = [];
    for (let i = 0; i < 1000; i++) {
      const project = projects[i % 2] as { id: string };
      const category = CATEGORIES[rand(CATEGORIES.length)] as string;
      if (i % 5 === 4) {
        const budget_minor = rand(1_000_000);
        requests.push(() =>
          h.call('PUT', projectUrl(project.id, '/budget/lines'), EDITOR, { data: { category, budget_minor } }),
        );
      } else {
        const kind = rand(2) === 0 ? 'committed' : 'actual';
        const amount_minor = rand(200_000) - 50_000;
        const key = `${project.id}/${category}`;
        const e = expected.get(key) ?? { budget: 0, committed: 0, actual: 0 };
        if (kind === 'committed') e.committed += amount_minor;
        else e.actual += amount_minor;
        expected.set(key, e);
        requests.push(() =>
          h.call('POST', projectUrl(project.id, '/budget/costs'), EDITOR, {
            data: { category, kind, amount_minor, occurred_on: '2026-02-01' },
          }),
        );
      }
    }
    const answers = await Promise.all(requests.map((r) => r()));
    expect(answers.filter((a) => a.status !== 200 && a.status !== 201).map((a) => [a.status, a.body])).toEqual([]);

    // Each line's committed and actual equal the integer sum of its events (in the database and as sent).
    const drift = await sql<{ project_id: string; category: string }>`
        SELECT l.project_id, l.category FROM budget_lines l
        LEFT JOIN (SELECT project_id, category,
                          sum(amount_minor) FILTER (WHERE kind = 'committed') AS committed,
                          sum(amount_minor) FILTER (WHERE kind = 'actual') AS actual
                   FROM cost_events GROUP BY project_id, category) e USING (project_id, category)
        WHERE l.committed_minor <> COALESCE(e.committed, 0) OR l.actual_minor <> COALESCE(e.actual, 0)`.execute(h.db);
    expect(drift.rows).toEqual([]);
    const events = await sql<{ n: number }>`SELECT count(*)::int AS n FROM cost_events`.execute(h.db);
    expect(events.rows[0]?.n).toBe(800);

    for (const project of projects) {
      const r = await h.call('GET', projectUrl(project.id, '/budget'), READER);
      const lines = r.data.lines as {
        category: string;
        budget_minor: number;
        committed_minor: number;
        actual_minor: number;
      }[];
      for (const line of lines) {
        const e = expected.get(`${project.id}/${line.category}`) ?? { committed: 0, actual: 0 };
        expect([line.category, line.committed_minor, line.actual_minor]).toEqual([
          line.category,
          e.committed,
          e.actual,
        ]);
      }
      const sum = (f: 'budget_minor' | 'committed_minor' | 'actual_minor') => lines.reduce((s, l) => s + l[f], 0);
      expect(r.data.totals).toEqual({
        budget_minor: sum('budget_minor'),
        committed_minor: sum('committed_minor'),
        actual_minor: sum('actual_minor'),
      });
    }
    const totals = await sql<{ id: string }>`
        SELECT d.id FROM development_projects d
        LEFT JOIN (SELECT project_id, sum(budget_minor) b, sum(committed_minor) c, sum(actual_minor) a
                   FROM budget_lines GROUP BY project_id) l ON l.project_id = d.id
        WHERE d.budget_minor <> COALESCE(l.b, 0) OR d.committed_minor <> COALESCE(l.c, 0)
           OR d.actual_minor <> COALESCE(l.a, 0)`.execute(h.db);
    expect(totals.rows).toEqual([]);
  }, 300_000);
});
