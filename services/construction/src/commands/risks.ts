import { uuidv7 } from '@platform/kit';
import { type RiskStatus, requireStatusChange, riskNotFound } from '../domain/risks.ts';
import type { Risk, RiskInput, RiskStatusInput } from '../schemas/registers.ts';
import { findRisk, insertRisk, setRiskStatus } from '../store/risks.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/** Raises a risk on a project, open (CON-159). */
export async function raiseRisk(ctx: CommandCtx, input: RiskInput): Promise<Risk> {
  const { trx, principal, now } = ctx;
  const project = await projectForWrite(ctx, input.project_id);
  const risk = await insertRisk(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: project.id,
      title: input.title.trim(),
      description: input.description ?? '',
      likelihood: input.likelihood ?? null,
      impact: input.impact ?? null,
      owner_fid: input.owner_fid ?? null,
      created_by: principal.id,
    },
    now,
  );
  await ctx.emit({ type: 'risk.raised', data: { risk_id: risk.id, project_id: project.id, actor_fid: principal.id } });
  return risk;
}

/** Sets a risk's status (CON-160, CON-161); the status it has is 409 same_status (CON-162). */
export async function changeRiskStatus(ctx: CommandCtx, id: string, input: RiskStatusInput): Promise<Risk> {
  const { trx, principal, now } = ctx;
  const found = await findRisk(trx, id);
  if (!found) throw riskNotFound();
  await projectForWrite(ctx, found.project_id);
  const risk = await findRisk(trx, id, { lock: true });
  if (!risk) throw riskNotFound();
  requireStatusChange(risk.status, input.status);
  const changed = await setRiskStatus(trx, id, input.status as RiskStatus, now);
  await ctx.emit({
    type: 'risk.status_changed',
    data: { risk_id: id, project_id: risk.project_id, from: risk.status, to: input.status, actor_fid: principal.id },
  });
  return changed;
}
