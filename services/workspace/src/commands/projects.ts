import { unprocessable, uuidv7 } from '@platform/kit';
import { trimmedName } from '../domain/projects.ts';
import { itemCreated } from '../domain/task-events.ts';
import { defaultStatus, offersType } from '../domain/workflows.ts';
import type { ProjectInput } from '../schemas/projects.ts';
import { insertProject, takeChangeNumber, upsertMember } from '../store/projects.ts';
import { insertStartingViews } from '../store/starting-views.ts';
import { insertTask } from '../store/tasks.ts';
import { findTemplate } from '../store/templates.ts';
import type { CommandCtx } from './context.ts';

/** Trimmed; 1 to 200 characters. */
export const projectName = (raw: string) => trimmedName(raw);

/**
 * Any signed-in person creates a project and becomes its owner. The workflow comes from
 * template_id, else workflow, else product_development, and never changes afterwards. The
 * project starts with its starting views (no events) and the template's starter tasks (origin
 * template).
 */
export async function createProject(ctx: CommandCtx, input: ProjectInput) {
  const { trx, principal, now } = ctx;
  const template = input.template_id ? await findTemplate(trx, input.template_id) : undefined;
  if (input.template_id && !template) {
    throw unprocessable('template_not_found', 'No project template has that id', 'data/template_id');
  }
  const workflow = template?.workflow ?? input.workflow ?? 'product_development';
  const project = await insertProject(
    trx,
    {
      id: uuidv7(now.getTime()),
      name: projectName(input.name),
      description: input.description ?? '',
      workflow,
      instructions: input.instructions ?? '',
      checkin_weekday: input.checkin_weekday ?? 1,
      template_id: template?.id ?? null,
      created_by: principal.id,
    },
    now,
  );
  const seq = await takeChangeNumber(trx, project.id, 'structure');
  await upsertMember(trx, project.id, principal.id, 'owner', principal.id, now);
  await insertStartingViews(trx, project.id, workflow, now);

  const status = defaultStatus(workflow);
  const starters = (template?.starter_tasks ?? []).filter((t) => offersType(workflow, t.type));
  const created = [];
  for (const [i, t] of starters.entries()) {
    created.push(
      await insertTask(
        trx,
        {
          id: uuidv7(now.getTime()),
          project_id: project.id,
          type: t.type,
          title: t.title,
          body: t.body ?? '',
          status_id: status.id,
          category: status.category,
          rank: (i + 1) * 1024,
          assignee: null,
          target_date: null,
          goal_id: null,
          origin: 'template',
          fields: {},
          links: [],
          resolution: null,
          created_by: principal.id,
        },
        seq,
        now,
      ),
    );
  }
  await ctx.emit([
    {
      type: 'project.created',
      data: { projectId: project.id, workflow, templateId: project.template_id, actor: principal.id },
    },
    ...created.map((t) => itemCreated(t, { actor: principal.id })),
  ]);
  return { ...project, role: 'owner' as const };
}
