import { type Db, isoOrThrow } from '@platform/kit';
import type { TaskType, Workflow } from '../domain/workflows.ts';

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

export const toTemplate = (r: Record<string, unknown>): TemplateRow => ({
  id: r.id as string,
  name: r.name as string,
  description: r.description as string,
  workflow: r.workflow as Workflow,
  builtin: Boolean(r.builtin),
  starter_tasks: (typeof r.starter_tasks === 'string' ? JSON.parse(r.starter_tasks) : r.starter_tasks) as StarterTask[],
  created_by: r.created_by as string,
  created_at: isoOrThrow(r.created_at as Date),
});

export async function findTemplate(db: Db, id: string): Promise<TemplateRow | undefined> {
  const row = await db.selectFrom('project_templates').select(TEMPLATE_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toTemplate(row) : undefined;
}
