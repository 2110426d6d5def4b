import type { PackContent } from '../schemas/pack.ts';

/**
 * The context pack (spec 2, "Context pack"; docs/decisions.md, workspace "Export and the context
 * pack"): a project's standing context, built off the read path and marked stale by any later
 * activity (a check-in included) or change number.
 */

/** The prompt of a pack's summary: the pack's own content, as text. */
export function packPrompt(c: PackContent): string {
  return [
    `Project: ${c.project.name} (${c.project.workflow})`,
    c.project.description && `Description: ${c.project.description}`,
    c.project.instructions && `Instructions: ${c.project.instructions}`,
    `Active goals: ${c.goals.map((g) => `${g.title} [${g.last_checkin_status ?? g.status}]`).join('; ') || 'none'}`,
    `Approved decisions: ${c.decisions.map((d) => d.title).join('; ') || 'none'}`,
    `Decisions waiting for approval: ${c.proposed_decisions}`,
    `Data sources: ${c.data_sources.map((s) => `${s.name} (${s.kind})`).join('; ') || 'none'}`,
    `Open tasks: ${c.tasks.open}`,
    'Summarise this project for someone starting work on it.',
  ]
    .filter(Boolean)
    .join('\n');
}
