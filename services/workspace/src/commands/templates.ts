import { unprocessable, uuidv7 } from '@platform/kit';
import { trimmedName } from '../domain/projects.ts';
import { offersType } from '../domain/workflows.ts';
import type { TemplateInput } from '../schemas/templates.ts';
import { insertTemplate, type TemplateRow } from '../store/templates.ts';
import type { CommandCtx } from './context.ts';

/**
 * Any signed-in person saves a project template. Its workflow is the one its projects get:
 * product_development unless it names general. Each starter task's type must be one that
 * workflow offers (422 unoffered_type naming the task); titles are trimmed, 1 to 200 characters.
 */
export async function saveTemplate(ctx: CommandCtx, input: TemplateInput): Promise<TemplateRow> {
  const { trx, principal, now } = ctx;
  const workflow = input.workflow ?? 'product_development';
  const starters = (input.starter_tasks ?? []).map((t, i) => {
    if (!offersType(workflow, t.type)) {
      throw unprocessable(
        'unoffered_type',
        `The ${workflow} workflow does not offer the type ${t.type}`,
        `data/starter_tasks/${i}/type`,
      );
    }
    const title = trimmedName(t.title, `data/starter_tasks/${i}/title`, 'A starter task title');
    return t.body === undefined ? { type: t.type, title } : { type: t.type, title, body: t.body };
  });
  const template = await insertTemplate(
    trx,
    {
      id: uuidv7(now.getTime()),
      name: trimmedName(input.name, 'data/name', 'The template name'),
      description: input.description ?? '',
      workflow,
      starter_tasks: starters,
      created_by: principal.id,
    },
    now,
  );
  await ctx.emit({ type: 'project.template_saved', data: { templateId: template.id, workflow, actor: principal.id } });
  return template;
}
