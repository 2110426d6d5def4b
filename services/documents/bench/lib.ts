import type { Database } from '@platform/kit';
import { type BenchKind, benchDatabase as kitBenchDatabase, listenOnFreePort } from '@platform/kit/testing';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB, Db } from '../src/store/db.ts';

/** Shared pieces of the documents benchmark: databases, the server, seeding. */

export type Kind = BenchKind;

/** A freshly migrated documents database: in-memory PGlite, or a fresh schema on DATABASE_URL. */
export const benchDatabase = (kind: Kind) => kitBenchDatabase<DB>('documents', MIGRATIONS, kind);

/** The real app (silent log, no storage: lists never touch it) on 127.0.0.1, a free port. */
export async function startServer(database: Database<DB>) {
  const app = await buildApp({ database, storage: undefined, logLevel: 'silent' });
  return listenOnFreePort(app);
}

export const REF_TYPES = ['project', 'vendor', 'invoice', 'lease'] as const;
/** Documents that share one (ref_type, ref_id) pair, whatever the table's size. */
export const DOCS_PER_REF = 10;

/**
 * The seeded documents' references, as SQL over g (the document's number): document g has
 * 1 + g % 3 references k = 1..3. Within each run of 1,000 documents, reference k of documents
 * g, g + 100, ..., g + 900 names the same record `ref-k-<run>-<g % 100>`, so every pair matches
 * 10 documents spread over 1,000, at any table size; the type depends on the pair only.
 */
const refId = (g: string, k: string) => `'ref-' || ${k} || '-' || (${g} / 1000) || '-' || (${g} % 100)`;
const refType = (g: string, k: string) =>
  `(ARRAY['${REF_TYPES.join("','")}'])[1 + ((${g} / 1000) + (${g} % 100) + ${k}) % ${REF_TYPES.length}]`;

/** The (ref_type, ref_id) of reference 1 of document g: every document has one, so it matches 10. */
export function target(g: number) {
  const run = Math.floor(g / 1000);
  const slot = g % 100;
  return { ref_type: REF_TYPES[(run + slot + 1) % REF_TYPES.length], ref_id: `ref-1-${run}-${slot}` };
}

/**
 * Documents [from, to) straight into the tables with set-based SQL: ids ordered like the
 * service's uuidv7, newer documents later, 1-3 references each, an uploader for every document
 * and an owner for every third.
 */
export async function seedDocuments(db: Db, seed: string, from: number, to: number, total: number) {
  await db.transaction().execute(async (trx) => {
    // A bulk load: the rows are consistent by construction, so foreign-key triggers are skipped.
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await insertDocuments(trx, seed, from, to, total);
  });
}

async function insertDocuments(db: Db, seed: string, from: number, to: number, total: number) {
  const id = (g: string) => `(${`'${seed}-0000-7000-8'`} || lpad(to_hex(${g}), 15, '0'))::uuid`;
  await sql
    .raw(`INSERT INTO documents (id, filename, visibility, storage_account, container, blob_name, content_type,
      content_hash, byte_size, created_at, created_by, updated_at, updated_by)
    SELECT ${id('g')}, 'file-' || g || '.pdf', 'private', 'local', 'documents',
      'file-' || g || '_' || ${id('g')} || '.pdf', 'application/pdf', NULL, 1000 + g % 5000,
      now() - make_interval(secs => ${total} - g), 'bench', now() - make_interval(secs => ${total} - g), 'bench'
    FROM generate_series(${from}, ${to - 1}) g`)
    .execute(db);
  await sql
    .raw(`INSERT INTO document_references (document_id, position, ref_type, ref_id, ref_category, is_external)
    SELECT ${id('g')}, k - 1, ${refType('g', 'k')}, ${refId('g', 'k')},
      (ARRAY['evidence', 'photo', 'scan'])[k], (g + k) % 5 = 0
    FROM generate_series(${from}, ${to - 1}) g CROSS JOIN generate_series(1, 3) k
    WHERE k <= 1 + g % 3`)
    .execute(db);
  await sql
    .raw(`INSERT INTO document_metadata (document_id, position, meta_name, meta_value)
    SELECT ${id('g')}, 0, 'uploaded_by', 'user' || (g % 500) || '@example.com'
    FROM generate_series(${from}, ${to - 1}) g
    UNION ALL
    SELECT ${id('g')}, 1, 'owner', 'owner' || (g % 97)
    FROM generate_series(${from}, ${to - 1}) g WHERE g % 3 = 0`)
    .execute(db);
}

export async function counts(db: Db) {
  const r = await sql<{ documents: number; refs: number; meta: number }>`SELECT
    (SELECT count(*)::int FROM documents) AS documents,
    (SELECT count(*)::int FROM document_references) AS refs,
    (SELECT count(*)::int FROM document_metadata) AS meta`.execute(db);
  return r.rows[0];
}
