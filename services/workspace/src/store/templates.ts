import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { TaskType, Workflow } from '../domain/workflows.ts';
import type { Db, ProjectTemplates } from './db.ts';

export interface StarterTask {
  type: TaskType;
  title: string;
  body?: string;
}

export interface TemplateRow {
  id: string;
  name: string;
  description: string;
  workflow: Workflow;
  builtin: boolean;
  starter_tasks: StarterTask[];
  created_by: string;
  created_at: string;
}

export const TEMPLATE_COLUMNS = [
  'id',
  'name',
  'description',
  'workflow',
  'builtin',
  'starter_tasks',
  'created_by',
  'created_at',
] as const;

export const toTemplate = (r: Pick<Selectable<ProjectTemplates>, (typeof TEMPLATE_COLUMNS)[number]>): TemplateRow => ({
  id: r.id,
  name: r.name,
  description: r.description,
  workflow: r.workflow as Workflow,
  builtin: Boolean(r.builtin),
  starter_tasks: (typeof r.starter_tasks === 'string' ? JSON.parse(r.starter_tasks) : r.starter_tasks) as StarterTask[],
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
});

export async function findTemplate(db: Db, id: string): Promise<TemplateRow | undefined> {
  const row = await db.selectFrom('project_templates').select(TEMPLATE_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toTemplate(row) : undefined;
}

/** Built-in templates first, then saved ones in the order they were saved. */
export async function listTemplates(db: Db, page: PageRequest): Promise<{ items: TemplateRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('project_templates')
      .select(TEMPLATE_COLUMNS)
      .orderBy('builtin', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db.selectFrom('project_templates').select(sql<string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  return { items: rows.map(toTemplate), total: Number(count?.n ?? 0) };
}

export interface NewTemplate {
  id: string;
  name: string;
  description: string;
  workflow: Workflow;
  starter_tasks: StarterTask[];
  created_by: string;
}

export async function insertTemplate(trx: Db, t: NewTemplate, now: Date): Promise<TemplateRow> {
  const row = await trx
    .insertInto('project_templates')
    .values({ ...t, builtin: false, starter_tasks: JSON.stringify(t.starter_tasks), created_at: now })
    .returning(TEMPLATE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toTemplate(row);
}
