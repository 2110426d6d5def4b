import { Command, Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { draftVariation, incorporateVariation, priceVariation, submitVariation } from '../commands/variations.ts';
import { variationNotFound } from '../domain/variations.ts';
import {
  PriceInput,
  SubmitInput,
  Variation,
  VariationDetail,
  VariationInput,
  VariationListQuery,
  VariationParams,
} from '../schemas/variations.ts';
import { approvalWithReviewers } from '../store/approvals.ts';
import { currentBaseline, findVariation, listVariations } from '../store/variations.ts';
import { type Routes, route } from './deps.ts';

const tags = ['variations'];
const WRITE =
  'Editors (CONSTRUCTION_EDITORS). The project must hold its award baseline (409 no_baseline) and be open (409 project_closed).';

export const VARIATION_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/variations',
    action: 'ManageVariations',
    tags,
    summary: 'Draft a variation on an awarded project',
    description: `${WRITE} It starts drafted. Publishes variation.drafted.`,
    body: Command(VariationInput),
    response: Envelope(Variation),
    status: 201,
    errors: ['project_not_found', 'project_closed', 'no_baseline'],
    run: (ctx, { body }) => draftVariation(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/variations',
    action: 'ReadVariations',
    tags,
    summary: 'Variations newest first; filters project_id and status; page mode, 50 by default, at most 200',
    query: VariationListQuery,
    response: PageEnvelope(Variation),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, 50);
      const { items, total } = await listVariations(
        deps.database.db,
        { project_id: query.project_id, status: query.status },
        page,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/variations/:id',
    action: 'ReadVariations',
    tags,
    summary:
      "One variation beside its project's current (newest) baseline, with its approval and reviewers once submitted",
    params: VariationParams,
    response: Envelope(VariationDetail),
    errors: ['variation_not_found'],
    handler: async ({ params, reply }, deps) => {
      const db = deps.database.db;
      const variation = await findVariation(db, params.id);
      if (!variation) throw variationNotFound();
      const [baseline, approval] = await Promise.all([
        currentBaseline(db, variation.project_id),
        variation.approval_id ? approvalWithReviewers(db, variation.approval_id) : undefined,
      ]);
      return reply.envelope({ ...variation, current_baseline: baseline ?? null, approval: approval ?? null });
    },
  }),

  route({
    method: 'PUT',
    url: '/v1/variations/:id/price',
    action: 'ManageVariations',
    tags,
    summary: 'Price a drafted or priced variation: cost change (signed integer minor units) and days',
    description: `${WRITE} Any other state is 409 variation_not_open. The variation becomes priced. Publishes variation.priced.`,
    params: VariationParams,
    body: Command(PriceInput),
    response: Envelope(Variation),
    errors: ['variation_not_found', 'project_not_found', 'project_closed', 'no_baseline', 'variation_not_open'],
    run: (ctx, { params, body }) => priceVariation(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/variations/:id/submit',
    action: 'ManageVariations',
    tags,
    summary: 'Submit a priced variation for approval naming its reviewers',
    description:
      `${WRITE} Only a priced variation is submitted: a drafted one is 422 variation_not_priced, any later state ` +
      '409 variation_not_open. Writes an approval of subject variation with the reviewers (emails stored ' +
      'lowercased; at least one required, else 422 required_reviewer_missing). The last required answer approves ' +
      'or rejects the variation. Publishes approval.requested and variation.submitted.',
    params: VariationParams,
    body: Command(SubmitInput),
    response: Envelope(Variation),
    errors: [
      'variation_not_found',
      'project_not_found',
      'project_closed',
      'no_baseline',
      'variation_not_open',
      'variation_not_priced',
      'required_reviewer_missing',
    ],
    run: (ctx, { params, body }) => submitVariation(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/variations/:id/incorporate',
    action: 'ManageVariations',
    tags,
    summary: 'Incorporate an approved variation: writes the next baseline',
    description:
      `${WRITE} Only an approved variation (409 variation_not_approved). The new baseline (kind variation, next ` +
      'seq) carries the current sum plus the cost change and the current completion date moved by the days. ' +
      'Publishes variation.incorporated.',
    params: VariationParams,
    body: Command(Type.Object({}, { additionalProperties: false })),
    response: Envelope(Variation),
    errors: ['variation_not_found', 'project_not_found', 'project_closed', 'no_baseline', 'variation_not_approved'],
    run: (ctx, { params }) => incorporateVariation(ctx, params.id),
  }),
];
