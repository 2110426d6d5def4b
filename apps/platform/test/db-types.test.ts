import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAll, ROOT, servicesWithMigrations, staleFiles } from '../../../scripts/db-types.ts';

// The types and schema snapshots come from migrations applied to a real PostgreSQL (and pg_dump):
// CI's second run sets TEST_POSTGRES_URL; without it this is skipped, unless real infrastructure
// is required.
const url = process.env.TEST_POSTGRES_URL;
if (!url && process.env.REQUIRE_REAL_INFRA === '1') {
  throw new Error('REQUIRE_REAL_INFRA=1 needs TEST_POSTGRES_URL (database types are generated on PostgreSQL)');
}

describe('15.3 database types', () => {
  it('15.3 every service with migrations has committed database types and a schema snapshot', () => {
    for (const service of servicesWithMigrations()) {
      expect(existsSync(join(ROOT, 'services', service, 'src/store/db.ts')), service).toBe(true);
      expect(existsSync(join(ROOT, 'services', service, 'schema.sql')), service).toBe(true);
    }
    expect(existsSync(join(ROOT, 'packages/kit/src/db/kit-tables.ts'))).toBe(true);
  });

  it('15.3 no service code types its database as Kysely<any>', () => {
    const loose: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (e.name.endsWith('.ts') && /\b(Kysely|Db|Database)<any>/.test(readFileSync(path, 'utf8')))
          loose.push(path);
      }
    };
    for (const service of servicesWithMigrations()) {
      for (const dir of ['src', 'test', 'bench']) {
        if (existsSync(join(ROOT, 'services', service, dir))) walk(join(ROOT, 'services', service, dir));
      }
    }
    expect(loose).toEqual([]);
  });

  it.skipIf(!url)(
    '15.3 committed database types and schema.sql match the migrations (run `npm run db:types` after a migration)',
    async () => {
      const files = await generateAll(url);
      expect(files.length).toBe(1 + 2 * servicesWithMigrations().length);
      expect(staleFiles(files)).toEqual([]);
    },
  );
});
