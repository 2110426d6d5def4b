import { uuidv7 } from '@platform/kit';
import { reviewerList } from '../domain/approvals.ts';
import {
  nextBaseline,
  requireApproved,
  requireBaseline,
  requireOpen,
  requireSubmittable,
  variationNotFound,
} from '../domain/variations.ts';
import type { PriceInput, SubmitInput, Variation, VariationInput } from '../schemas/variations.ts';
import { insertApproval } from '../store/approvals.ts';
import {
  awardBaseline,
  currentBaseline,
  findVariation,
  insertBaseline,
  insertVariation,
  updateVariation,
} from '../store/variations.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Variation commands (spec 3, Variations). Each locks the variation's project first
 * (projectForWrite: 404 project_not_found, 409 project_closed), checks the award baseline (409
 * no_baseline), then locks the variation. Approval and rejection happen in the answer of the last
 * required reviewer (commands/approvals.ts).
 */

/** The variation locked for this command, on its locked, open, awarded project. */
async function variationForWrite(ctx: CommandCtx, id: string): Promise<Variation> {
  const found = await findVariation(ctx.trx, id);
  if (!found) throw variationNotFound();
  await projectForWrite(ctx, found.project_id);
  requireBaseline(await awardBaseline(ctx.trx, found.project_id));
  const locked = await findVariation(ctx.trx, id, { lock: true });
  if (!locked) throw variationNotFound();
  return locked;
}

/**
 * Drafts a variation on an awarded project (CON-126, CON-127). The document publish of another
 * area may call it in its own transaction with the revision the variation comes from.
 */
export async function draftVariation(
  ctx: CommandCtx,
  input: VariationInput,
  sourceRevisionId: string | null = null,
): Promise<Variation> {
  const { trx, principal, now } = ctx;
  const project = await projectForWrite(ctx, input.project_id);
  requireBaseline(await awardBaseline(trx, project.id));
  const drafted = await insertVariation(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: project.id,
      title: input.title.trim(),
      description: input.description ?? '',
      created_by: principal.id,
      source_revision_id: sourceRevisionId,
    },
    now,
  );
  await ctx.emit({
    type: 'variation.drafted',
    data: { variation_id: drafted.id, project_id: project.id, actor_fid: principal.id },
  });
  return drafted;
}

/** Records the cost change and days of a drafted or priced variation (CON-131; else 409 variation_not_open). */
export async function priceVariation(ctx: CommandCtx, id: string, input: PriceInput): Promise<Variation> {
  const current = await variationForWrite(ctx, id);
  requireOpen(current);
  const priced = await updateVariation(
    ctx.trx,
    id,
    { status: 'priced', cost_change_minor: input.cost_change_minor, days: input.days },
    ctx.now,
  );
  await ctx.emit({
    type: 'variation.priced',
    data: {
      variation_id: id,
      project_id: priced.project_id,
      cost_change_minor: input.cost_change_minor,
      days: input.days,
      actor_fid: ctx.principal.id,
    },
  });
  return priced;
}

/**
 * Submits a priced variation for approval naming its reviewers (CON-132): an approval of subject
 * variation is written with them (lowercased, one required at least: 422
 * required_reviewer_missing) and the variation is submitted.
 */
export async function submitVariation(ctx: CommandCtx, id: string, input: SubmitInput): Promise<Variation> {
  const { trx, principal, now } = ctx;
  const current = await variationForWrite(ctx, id);
  requireSubmittable(current);
  const reviewers = reviewerList(input.reviewers);
  const approval = await insertApproval(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: current.project_id,
      subject_type: 'variation',
      subject_id: id,
      stage: null,
      title: current.title,
      requested_by: principal.id,
    },
    reviewers,
    now,
  );
  const submitted = await updateVariation(trx, id, { status: 'submitted', approval_id: approval.id }, now);
  await ctx.emit([
    {
      type: 'approval.requested',
      data: {
        approval_id: approval.id,
        project_id: current.project_id,
        subject_type: 'variation',
        subject_id: id,
        stage: null,
        reviewers: reviewers.length,
        actor_fid: principal.id,
      },
    },
    {
      type: 'variation.submitted',
      data: { variation_id: id, project_id: current.project_id, approval_id: approval.id, actor_fid: principal.id },
    },
  ]);
  return submitted;
}

/**
 * Incorporates an approved variation (CON-135; else 409 variation_not_approved, CON-136): the
 * next baseline is written in this transaction (the current one's sum plus the cost change, its
 * completion date moved by the days) and the variation is incorporated.
 */
export async function incorporateVariation(ctx: CommandCtx, id: string): Promise<Variation> {
  const { trx, principal, now } = ctx;
  const current = await variationForWrite(ctx, id);
  requireApproved(current);
  const previous = requireBaseline(await currentBaseline(trx, current.project_id));
  const next = nextBaseline(previous, current);
  const baseline = await insertBaseline(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: current.project_id,
      kind: 'variation',
      variation_id: id,
      created_by: principal.id,
      ...next,
    },
    now,
  );
  const incorporated = await updateVariation(trx, id, { status: 'incorporated', baseline_id: baseline.id }, now);
  await ctx.emit({
    type: 'variation.incorporated',
    data: {
      variation_id: id,
      project_id: current.project_id,
      baseline_id: baseline.id,
      seq: baseline.seq,
      amount_minor: baseline.amount_minor,
      finish_date: baseline.finish_date,
      actor_fid: principal.id,
    },
  });
  return incorporated;
}
