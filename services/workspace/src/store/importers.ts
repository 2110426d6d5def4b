import type { Kysely } from 'kysely';
import type { DB } from './db.ts';

/** All SQL of the connectors (imported evidence references and cursors; migration 0017). */

export interface ImportedRow {
  source: 'github_pull' | 'github_issue' | 'gmail' | 'drive';
  external_id: string;
  version: string;
  document_id: string;
  title: string;
  origin: string;
  url: string | null;
  contributes_to_knowledge: boolean;
  occurred_at: Date;
}

export async function importedVersion(db: Kysely<DB>, source: string, externalId: string) {
  const row = await db
    .selectFrom('imported_evidence')
    .select(['version', 'document_id'])
    .where('source', '=', source)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row;
}

/** One row per item: a new version repoints the existing row at its new document. */
export async function upsertImported(db: Kysely<DB>, row: ImportedRow, id: string, now: Date) {
  await db
    .insertInto('imported_evidence')
    .values({ ...row, id, imported_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['source', 'external_id']).doUpdateSet({
        version: row.version,
        document_id: row.document_id,
        title: row.title,
        url: row.url,
        contributes_to_knowledge: row.contributes_to_knowledge,
        occurred_at: row.occurred_at,
        updated_at: now,
      }),
    )
    .execute();
}

export async function readCursor<T>(db: Kysely<DB>, connector: string): Promise<T | undefined> {
  const row = await db
    .selectFrom('connector_cursors')
    .select('cursor')
    .where('connector', '=', connector)
    .executeTakeFirst();
  return row?.cursor as T | undefined;
}

export async function writeCursor(db: Kysely<DB>, connector: string, cursor: unknown, now: Date) {
  const value = JSON.stringify(cursor);
  await db
    .insertInto('connector_cursors')
    .values({ connector, cursor: value, updated_at: now })
    .onConflict((oc) => oc.column('connector').doUpdateSet({ cursor: value, updated_at: now }))
    .execute();
}

export async function deleteCursor(db: Kysely<DB>, connector: string) {
  await db.deleteFrom('connector_cursors').where('connector', '=', connector).execute();
}

/** A repository's items follow its current knowledge flag (made private without :contributes: off). */
export async function setOriginKnowledge(db: Kysely<DB>, source: string, origin: string, on: boolean, now: Date) {
  await db
    .updateTable('imported_evidence')
    .set({ contributes_to_knowledge: on, updated_at: now })
    .where('source', '=', source)
    .where('origin', '=', origin)
    .where('contributes_to_knowledge', '<>', on)
    .execute();
}
