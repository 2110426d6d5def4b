import { randomUUID } from 'node:crypto';
import { type App, chain, DevPrincipals, devHeaderAuthenticator, KIT_MIGRATIONS, migrate } from '@platform/kit';
import { injectJson, testDatabase } from '@platform/kit/testing';
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB, Projects } from '../src/store/db.ts';
import { ADMIN } from './harness.ts';

/**
 * The legacy goals migration (0002) run the way it runs in production: on a database at 0001
 * holding rows an older server wrote, then every later migration applied on top. The rows are
 * read back through the API.
 */

type Database = Awaited<ReturnType<typeof testDatabase<DB>>>;
let database: Database;
let app: App;

const LIMIT = 20_000;
const HEADING = 'Goals:\n';

interface Legacy {
  id: string;
  goals: string;
  instructions: string;
  /** Omitted: the row is inserted without a workflow, as a server older than workflows did. */
  workflow?: string;
}

const rows: Record<string, Legacy> = {};
const legacy = (key: string, goals: string, instructions = '', workflow?: string) => {
  rows[key] = { id: randomUUID(), goals, instructions, workflow };
};

/** Instructions of `n` characters. */
const text = (n: number) => 'i'.repeat(n);

// Cases, by what the migration should do with each.
legacy('alone', 'Ship the beta by June');
legacy('after', 'Grow to ten customers', 'Be kind to each other');
// The result exactly at the limit: instructions + blank line + heading + goals = 20,000.
legacy('fits', 'g'.repeat(100), text(LIMIT - 100 - HEADING.length - 2));
// One character over: left as it was.
legacy('over', 'g'.repeat(101), text(LIMIT - 100 - HEADING.length - 2));
legacy('long', 'g'.repeat(LIMIT));
legacy('none', '', 'Only instructions');
legacy('blank', '   ', 'Whitespace goals stay');
legacy('typed', 'A goal', '', 'product_development');

async function insertLegacy(r: Legacy) {
  const cols = ['id', 'name', 'goals', 'instructions', 'created_by', 'created_at', 'updated_at'];
  const values: unknown[] = [
    r.id,
    `Legacy ${r.id.slice(0, 8)}`,
    r.goals,
    r.instructions,
    'legacy',
    new Date(),
    new Date(),
  ];
  if (r.workflow) {
    cols.push('workflow');
    values.push(r.workflow);
  }
  await database.db
    .insertInto('projects')
    // The 0001 schema's columns (goals), which the generated types (after every migration) no longer describe.
    .values(Object.fromEntries(cols.map((c, i) => [c, values[i]])) as Insertable<Projects>)
    .execute();
}

const read = async (id: string) => {
  const r = await injectJson(app, 'GET', `/v1/projects/${id}`, { headers: { 'x-dev-principal': ADMIN } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.data as { workflow: string; goals: string; instructions: string };
};

beforeAll(async () => {
  const first = MIGRATIONS.filter((m) => m.id.startsWith('0001_'));
  expect(first).toHaveLength(1);
  database = await testDatabase<DB>('workspace', first);
  for (const r of Object.values(rows)) await insertLegacy(r);
  const ran = await migrate(database.db, [...KIT_MIGRATIONS, ...MIGRATIONS]);
  expect(ran).toContain('0002_legacy_goals_into_instructions');
  app = (await buildApp({
    database,
    authenticator: chain(devHeaderAuthenticator(DevPrincipals.load())),
    logLevel: 'silent',
  })) as App;
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('legacy goals and projects older than workflows', () => {
  it('WS-047 legacy goals move into empty instructions under a Goals: heading; goals is then empty', async () => {
    const p = await read(rows.alone.id);
    expect(p.instructions).toBe('Goals:\nShip the beta by June');
    expect(p.goals).toBe('');
  });

  it('WS-047 legacy goals follow existing instructions after a blank line, under a Goals: heading', async () => {
    const p = await read(rows.after.id);
    expect(p.instructions).toBe('Be kind to each other\n\nGoals:\nGrow to ten customers');
    expect(p.goals).toBe('');
  });

  it('WS-047 a result of exactly 20,000 characters fits and is moved', async () => {
    const p = await read(rows.fits.id);
    expect(p.instructions).toHaveLength(LIMIT);
    expect(p.instructions.endsWith(`\n\nGoals:\n${rows.fits.goals}`)).toBe(true);
    expect(p.goals).toBe('');
  });

  it('WS-048 when the result would pass 20,000 characters the text stays in goals and instructions is unchanged', async () => {
    for (const key of ['over', 'long']) {
      const p = await read(rows[key].id);
      expect(p.goals, key).toBe(rows[key].goals);
      expect(p.instructions, key).toBe(rows[key].instructions);
    }
  });

  it('WS-046 WS-048 projects without legacy goals (empty or blank) keep both fields as they were', async () => {
    for (const key of ['none', 'blank']) {
      const p = await read(rows[key].id);
      expect(p.goals, key).toBe(rows[key].goals);
      expect(p.instructions, key).toBe(rows[key].instructions);
    }
  });

  it('WS-042 a project row written without a workflow (older than workflows) reads general; one with a workflow keeps it', async () => {
    expect((await read(rows.alone.id)).workflow).toBe('general');
    expect((await read(rows.typed.id)).workflow).toBe('product_development');
    expect((await read(rows.typed.id)).instructions).toBe('Goals:\nA goal');
  });

  it('WS-042 an old server inserting a project without workflow today still gets general', async () => {
    const r: Legacy = { id: randomUUID(), goals: '', instructions: '' };
    await insertLegacy(r);
    expect((await read(r.id)).workflow).toBe('general');
  });
});
