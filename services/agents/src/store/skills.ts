import type { PageRequest } from '@platform/kit';
import type { Insertable, Selectable } from 'kysely';
import type { Db, Skills, SkillVersions } from './db.ts';

export type SkillRow = Selectable<Skills>;
export type SkillVersionRow = Selectable<SkillVersions>;

export async function insertSkill(db: Db, row: Insertable<Skills>) {
  await db.insertInto('skills').values(row).execute();
}

export async function insertVersion(db: Db, row: Insertable<SkillVersions>) {
  await db.insertInto('skill_versions').values(row).execute();
}

export async function findSkill(db: Db, id: string): Promise<SkillRow | undefined> {
  return db.selectFrom('skills').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The skill, locked until the transaction ends: versions of one skill are numbered one at a time. */
export async function lockSkill(db: Db, id: string): Promise<SkillRow | undefined> {
  return db.selectFrom('skills').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
}

export async function updateSkill(
  db: Db,
  id: string,
  set: Partial<Pick<SkillRow, 'name' | 'description' | 'category'>>,
  now: Date,
) {
  await db
    .updateTable('skills')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** A skill's versions, newest first (without their markdown). */
export async function versionsOf(db: Db, skillIds: readonly string[]) {
  if (skillIds.length === 0) return [];
  return db
    .selectFrom('skill_versions')
    .select(['id', 'skill_id', 'number', 'source', 'document_id', 'blob_name', 'created_by', 'created_at'])
    .select((eb) => eb('markdown', 'is not', null).as('has_skill_md'))
    .where('skill_id', 'in', skillIds)
    .orderBy('skill_id')
    .orderBy('number', 'desc')
    .execute();
}
export type VersionSummary = Awaited<ReturnType<typeof versionsOf>>[number];

export async function latestNumber(db: Db, skillId: string): Promise<number> {
  const row = await db
    .selectFrom('skill_versions')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('skill_id', '=', skillId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A version of the skill with its markdown: the one named, or the latest. */
export async function versionWithBody(db: Db, skillId: string, versionId?: string) {
  let q = db.selectFrom('skill_versions').selectAll().where('skill_id', '=', skillId);
  q = versionId ? q.where('id', '=', versionId) : q.orderBy('number', 'desc').limit(1);
  return q.executeTakeFirst();
}

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of skills, newest first; q matches name, description, category or owner (FID or email). */
export async function listSkills(db: Db, q: string | undefined, page: PageRequest) {
  let base = db.selectFrom('skills');
  if (q) {
    const like = `%${escapeLike(q)}%`;
    base = base.where((eb) =>
      eb.or([
        eb('name', 'ilike', like),
        eb('description', 'ilike', like),
        eb('category', 'ilike', like),
        eb('owner_fid', 'ilike', like),
        eb('owner_email', 'ilike', like),
      ]),
    );
  }
  const [items, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

/** The latest version of each skill (AGT-043: what an agent's null version_id resolves to). */
export async function latestVersions(db: Db, skillIds: readonly string[]) {
  if (skillIds.length === 0) return new Map<string, { id: string; number: number; name: string }>();
  const rows = await db
    .selectFrom('skill_versions as v')
    .innerJoin('skills as s', 's.id', 'v.skill_id')
    .distinctOn('v.skill_id')
    .select(['v.skill_id', 'v.id', 'v.number', 's.name'])
    .where('v.skill_id', 'in', skillIds)
    .orderBy('v.skill_id')
    .orderBy('v.number', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.skill_id, { id: r.id, number: r.number, name: r.name }]));
}

/** Specific versions by id, with their skill's name. */
export async function versionsById(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, { skill_id: string; number: number; name: string }>();
  const rows = await db
    .selectFrom('skill_versions as v')
    .innerJoin('skills as s', 's.id', 'v.skill_id')
    .select(['v.id', 'v.skill_id', 'v.number', 's.name'])
    .where('v.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, { skill_id: r.skill_id, number: r.number, name: r.name }]));
}
