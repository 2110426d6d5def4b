import { commandScope, Envelope, runCommand, sendCommandResult } from '@platform/kit';
import type { CommandCtx } from '../commands/context.ts';
import {
  type AskedObjections,
  askObjections,
  rateObjection,
  recordObjections,
  recordRelated,
  relatedFor,
} from '../commands/panels.ts';
import { Command } from '../schemas/common.ts';
import { ConversationParams } from '../schemas/conversations.ts';
import {
  Feedback,
  FeedbackInput,
  Objections,
  ObjectionsInput,
  Related,
  RelatedActionInput,
  RelatedActionRecord,
  RelatedInput,
} from '../schemas/panels.ts';
import './conversation-deps.ts';
import { AsMemberHeaders } from '../schemas/common.ts';
import { asMember, type Routes, route } from './deps.ts';

const tags = ['conversations'];

const DEGRADED =
  'When the intelligence service is not configured, unreachable, slow or answers out of contract the answer is 200 ' +
  'with degraded: true and empty lists, never an error.';

/** The objections panel and the related panel of a conversation (issue 16). */
export const panelRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/conversations/:id/objections',
    action: 'use',
    tags,
    summary: 'Claims that argue against a plan, from the intelligence service (editors of the conversation)',
    description:
      'data.plan is the plan (1 to 20,000 characters, 422 invalid_plan). The caller needs editor on the conversation ' +
      '(unfiled: its starter; filed: an editor of its project, 403 below). audience is private when only the caller ' +
      'can read the conversation (unfiled, or filed on a project whose only member is the caller), else shared, and a ' +
      'shared answer omits quotes. The claims answered are recorded as raised on an assistant turn (author ' +
      'agent:objections, turn_kind lookup) whose extra.raised_objections lists their ids; claims raised in the ' +
      `conversation are excluded from later calls. ${DEGRADED} Nothing is written when no claim is raised.`,
    params: ConversationParams,
    body: Command(ObjectionsInput),
    response: Envelope(Objections),
    errors: ['conversation_not_found', 'conversation_archived', 'project_archived', 'invalid_plan'],
    command: true,
    handler: async ({ params, body, principal, req, reply }, deps) => {
      const now = deps.clock();
      let asked: AskedObjections | undefined;
      const result = await runCommand(
        { db: deps.database.db, req, principal },
        async (trx) => {
          // The kit's scope of this service's source: emit takes the declared events (events.ts).
          const scope = commandScope(deps, trx, principal, now) as unknown as Omit<CommandCtx, 'asMember'>;
          const data = await recordObjections(
            { ...scope, asMember: asMember(req) },
            params.id,
            asked as AskedObjections,
          );
          return { status: 200, data };
        },
        {
          // Who may ask and the intelligence call come before the transaction (and not at all for a replay).
          beforeTransaction: async () => {
            asked = await askObjections(
              deps.database.db,
              deps.intelligence,
              principal,
              asMember(req),
              params.id,
              body.data.plan,
            );
          },
        },
      );
      return sendCommandResult(reply, result);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/objections/feedback',
    action: 'use',
    tags,
    summary: 'Rate a claim the objections panel raised in this conversation: useful, already_knew or wrong',
    description:
      'Any other rating is 422 validation_failed; a claim not raised here is 422 claim_not_raised. Who may use the ' +
      "panel may rate; a later rating replaces the caller's. Publishes conversation.objection_rated.",
    params: ConversationParams,
    body: Command(FeedbackInput),
    response: Envelope(Feedback),
    errors: ['conversation_not_found', 'project_archived', 'claim_not_raised'],
    run: (ctx, { params, body }) => rateObjection(ctx, params.id, body.data.claim_id, body.data.rating),
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/related',
    action: 'use',
    // Writes nothing: no Idempotency-Key, and the body is only turn_seq.
    command: false,
    tags,
    summary: "Claims and records related to one of the caller's own messages (the related panel; writes nothing)",
    description:
      'The body is only {turn_seq} (any other key is 422 validation_failed). The turn must be the caller’s own ' +
      'message (an utterance they authored; anyone else’s is 422 not_own_message). A message under four words or a ' +
      `redacted one is skipped (skipped: too_short or redacted): no lookup, empty lists. ${DEGRADED} No row and no ` +
      'event are written.',
    schema: { headers: AsMemberHeaders },
    params: ConversationParams,
    body: RelatedInput,
    response: Envelope(Related),
    errors: ['conversation_not_found', 'turn_not_found', 'not_own_message'],
    handler: async ({ params, body, principal, req, reply }, deps) =>
      reply.envelope(
        await relatedFor(deps.database.db, deps.intelligence, principal, asMember(req), params.id, body.turn_seq),
      ),
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/related/actions',
    action: 'use',
    tags,
    summary: 'Record what the caller did with an item of the related panel: opened, not_relevant or asked',
    description:
      'data: turn_seq (the caller’s own message, else 422 not_own_message), item_id (the claim or record shown) and ' +
      'action; any other action is 422 validation_failed. Publishes conversation.related_action_recorded.',
    params: ConversationParams,
    body: Command(RelatedActionInput),
    response: Envelope(RelatedActionRecord),
    status: 201,
    errors: ['conversation_not_found', 'turn_not_found', 'not_own_message'],
    run: (ctx, { params, body }) => recordRelated(ctx, params.id, body.data),
  }),
];
