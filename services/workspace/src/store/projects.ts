import { isoOrThrow, type Principal } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import { actsAsAdmin, ownerRefusal } from '../domain/permissions.ts';
import { type ProjectAccess, projectNotFound, type Role } from '../domain/roles.ts';
import type { Workflow } from '../domain/workflows.ts';
import type { Project } from '../schemas/projects.ts';
import type { Db, Projects } from './db.ts';

export const PROJECT_COLUMNS = [
  'id',
  'name',
  'description',
  'workflow',
  'checkin_weekday',
  'goals',
  'instructions',
  'status',
  'contributes_to_knowledge',
  'legal_hold',
  'template_id',
  'created_by',
  'created_at',
  'updated_at',
] as const;

/** A project row as the store hands it on (reads add the caller's role). */
export type ProjectRow = Omit<Project, 'role'>;

export const toProjectRow = (r: Pick<Selectable<Projects>, (typeof PROJECT_COLUMNS)[number]>): ProjectRow => ({
  id: r.id,
  name: r.name,
  description: r.description,
  workflow: r.workflow as Workflow,
  checkin_weekday: Number(r.checkin_weekday),
  goals: r.goals,
  instructions: r.instructions,
  status: r.status as Project['status'],
  contributes_to_knowledge: Boolean(r.contributes_to_knowledge),
  legal_hold: Boolean(r.legal_hold),
  template_id: r.template_id ?? null,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

export async function findProject(db: Db, id: string): Promise<ProjectRow | undefined> {
  const row = await db.selectFrom('projects').select(PROJECT_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toProjectRow(row) : undefined;
}

/**
 * The project, locked until the command's transaction ends. Every write to a project's tasks,
 * goals, check-ins, views or settings takes this lock first, so writes to one project run one at
 * a time: change numbers follow commit order, and two moves into one gap never read the same
 * neighbours.
 */
export async function lockProject(trx: Db, id: string): Promise<ProjectRow | undefined> {
  const row = await trx
    .selectFrom('projects')
    .select(PROJECT_COLUMNS)
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row ? toProjectRow(row) : undefined;
}

export async function memberRole(db: Db, projectId: string, principalId: string): Promise<Role | null> {
  const row = await db
    .selectFrom('project_members')
    .select('role')
    .where('project_id', '=', projectId)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return (row?.role as Role | undefined) ?? null;
}

export interface VisibleProject {
  project: ProjectRow;
  access: ProjectAccess;
}

/**
 * The project as this caller may see it, or 404 when they cannot (not a member, and not a
 * platform admin acting as admin). `lock` takes the project's write lock (commands).
 */
export async function visibleProject(
  db: Db,
  principal: Principal,
  asMember: boolean,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<VisibleProject> {
  const project = opts.lock ? await lockProject(db, id) : await findProject(db, id);
  if (!project) throw projectNotFound();
  const refused = ownerRefusal(principal);
  const access: ProjectAccess = {
    member: await memberRole(db, id, principal.id),
    admin: actsAsAdmin(principal, asMember),
    ...(refused === undefined ? {} : { ownerRefused: refused }),
  };
  if (!access.admin && access.member === null) throw projectNotFound();
  return { project, access };
}

/** What a write changed, for change following: tasks only, or also the project's structure. */
export type ChangeKind = 'tasks' | 'structure' | 'renumber';

/**
 * Takes the project's next change number (call under lockProject). Structure changes (goals,
 * check-ins, views, settings) and renumberings also record the number, so GET .../changes can say
 * structure_changed and reset without reading anything but the project row.
 */
export async function takeChangeNumber(trx: Db, projectId: string, ...kinds: ChangeKind[]): Promise<number> {
  const structure = kinds.includes('structure');
  const renumber = kinds.includes('renumber');
  const r = await sql<{ change_seq: string }>`
    UPDATE projects SET
      change_seq = change_seq + 1,
      structure_seq = CASE WHEN ${structure} THEN change_seq + 1 ELSE structure_seq END,
      renumber_seq = CASE WHEN ${renumber} THEN change_seq + 1 ELSE renumber_seq END
    WHERE id = ${projectId}
    RETURNING change_seq`.execute(trx);
  return Number(r.rows[0]?.change_seq);
}

export interface ChangeCounters {
  seq: number;
  structure_seq: number;
  renumber_seq: number;
}

export async function changeCounters(db: Db, projectId: string): Promise<ChangeCounters> {
  const r = await sql<{ change_seq: string; structure_seq: string; renumber_seq: string }>`
    SELECT change_seq, structure_seq, renumber_seq FROM projects WHERE id = ${projectId}`.execute(db);
  const row = r.rows[0];
  return {
    seq: Number(row?.change_seq ?? 0),
    structure_seq: Number(row?.structure_seq ?? 0),
    renumber_seq: Number(row?.renumber_seq ?? 0),
  };
}

export interface NewProject {
  id: string;
  name: string;
  description: string;
  workflow: Workflow;
  instructions: string;
  checkin_weekday: number;
  template_id: string | null;
  created_by: string;
}

export async function insertProject(trx: Db, p: NewProject, now: Date): Promise<ProjectRow> {
  const row = await trx
    .insertInto('projects')
    .values({ ...p, created_at: now, updated_at: now })
    .returning(PROJECT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toProjectRow(row);
}

export async function upsertMember(trx: Db, projectId: string, principalId: string, role: Role, by: string, now: Date) {
  await trx
    .insertInto('project_members')
    .values({ project_id: projectId, principal_id: principalId, role, added_by: by, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'principal_id']).doUpdateSet({ role, updated_at: now }))
    .execute();
}
