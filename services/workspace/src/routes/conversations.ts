import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { readableConversation } from '../commands/conversation-access.ts';
import { editConversation, moveConversation, settleSuggestion, startConversation } from '../commands/conversations.ts';
import { LIST_PAGE, usageWindow } from '../domain/conversations.ts';
import { actsAsAdmin } from '../domain/permissions.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import {
  Conversation,
  ConversationInput,
  ConversationListQuery,
  ConversationParams,
  ConversationPatch,
  MoveInput,
  ProjectConversationInput,
  ProjectConversationListQuery,
  Resolution,
  ResolveInput,
  SuggestionParams,
  Suggestions,
  Usage,
  UsageQuery,
} from '../schemas/conversations.ts';
import { conversationUsage, conversationView, listConversations } from '../store/conversations.ts';
import './conversation-deps.ts';
import { asMember, type Routes, readableProject, route } from './deps.ts';
import { suggestionsFor } from './suggestions.ts';

const tags = ['conversations'];

const FILING =
  'Anyone signed in may start one unfiled (project_id absent until it is filed). Filing it on create needs editor ' +
  'on the project (403, nothing written; 404 project_not_found when the caller cannot see it; 409 ' +
  'project_archived). title (or name) is trimmed, 1 to 200 characters (422 invalid_conversation_title), default ' +
  '"New conversation"; contributes_to_knowledge defaults to true.';

export const conversationRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/conversations',
    action: 'use',
    tags,
    summary: 'Start a conversation, unfiled unless project_id is sent',
    description: FILING,
    body: Command(ConversationInput),
    response: Envelope(Conversation),
    status: 201,
    errors: ['project_not_found', 'project_archived', 'invalid_conversation_title'],
    run: (ctx, { body }) => startConversation(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/conversations',
    action: 'use',
    tags,
    summary:
      "The caller's conversations: the unfiled ones they started and those on projects they are a member of (a platform admin: every filed one unless X-Platform-As-Member: true); most recently active first",
    description:
      'status=active hides archived conversations (status=archived lists only those; without status both are ' +
      'listed, as in the review console). filed=false lists only unfiled ones. Page mode, 50 by default, at most 200.',
    schema: { headers: AsMemberHeaders },
    query: ConversationListQuery,
    response: PageEnvelope(Conversation),
    handler: async ({ query, principal, req, reply }, deps) => {
      const page = pageRequest(query, LIST_PAGE.pageSize);
      const { items, total } = await listConversations(
        deps.database.db,
        {
          reader: { principalId: principal.id, projects: actsAsAdmin(principal, asMember(req)) ? 'all' : 'members' },
          status: query.status,
          filed: query.filed,
        },
        page,
      );
      return reply.envelope(items.map(conversationView), pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/conversations/usage',
    action: 'read_all_projects',
    tags,
    summary: 'Conversations created or with a turn in a window, counted from the tables (platform admins only)',
    description:
      'The window is [from, to): default the 30 days up to now; from must be before to (422 invalid_window). ' +
      'Anyone but a platform admin is 403.',
    query: UsageQuery,
    response: Envelope(Usage),
    errors: ['invalid_window'],
    handler: async ({ query, reply }, deps) => {
      const { from, to } = usageWindow(deps.clock(), query.from, query.to);
      const counts = await conversationUsage(deps.database.db, from, to);
      return reply.envelope({ from: from.toISOString(), to: to.toISOString(), ...counts });
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/conversations',
    action: 'use',
    tags,
    summary: 'Start a conversation filed onto this project (editors)',
    description: FILING,
    params: ProjectParams,
    body: Command(ProjectConversationInput),
    response: Envelope(Conversation),
    status: 201,
    errors: ['project_not_found', 'project_archived', 'invalid_conversation_title'],
    run: (ctx, { body, params }) => startConversation(ctx, { ...body.data, project_id: params.id }),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/conversations',
    action: 'use',
    tags,
    summary: "The project's conversations (viewers), most recently active first",
    description:
      'status=active hides archived conversations; without status archived ones are listed too (the review ' +
      'console). Page mode, 50 by default, at most 200.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: ProjectConversationListQuery,
    response: PageEnvelope(Conversation),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const page = pageRequest(input.query, LIST_PAGE.pageSize);
      const { items, total } = await listConversations(
        deps.database.db,
        { projectId: project.id, status: input.query.status },
        page,
      );
      return input.reply.envelope(items.map(conversationView), pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/conversations/:id',
    action: 'use',
    tags,
    summary: 'Read a conversation (archived ones too): unfiled, its starter; filed, its project readers',
    schema: { headers: AsMemberHeaders },
    params: ConversationParams,
    response: Envelope(Conversation),
    errors: ['conversation_not_found'],
    handler: async ({ params, principal, req, reply }, deps) => {
      const { conversation } = await readableConversation(deps.database.db, principal, asMember(req), params.id);
      return reply.envelope(conversationView(conversation));
    },
  }),

  route({
    method: 'PATCH',
    url: '/v1/conversations/:id',
    action: 'use',
    tags,
    summary: 'Rename (title or name), set status active or archived, set contributes_to_knowledge',
    description:
      'Unfiled: its starter; filed: editors of its project. Only the fields sent change; values equal to the ' +
      'stored ones are no change (no event). Archiving keeps it readable by id and in the lists without ' +
      'status=active; new turns are then 409 conversation_archived until it is set active again.',
    params: ConversationParams,
    body: Command(ConversationPatch),
    response: Envelope(Conversation),
    errors: ['conversation_not_found', 'project_archived', 'invalid_conversation_title'],
    run: (ctx, { body, params }) => editConversation(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/move',
    action: 'use',
    tags,
    summary: 'File the conversation onto a project, or move it to another, with its files',
    description:
      'The caller changes it where it is (unfiled: its starter; filed: an editor there) and is an editor on the ' +
      'target (403 otherwise, nothing written; 404 project_not_found when they cannot see it). Moving it to its ' +
      'own project changes nothing.',
    params: ConversationParams,
    body: Command(MoveInput),
    response: Envelope(Conversation),
    errors: ['conversation_not_found', 'project_not_found', 'project_archived'],
    run: (ctx, { body, params }) => moveConversation(ctx, params.id, body.data.project_id),
  }),

  route({
    method: 'GET',
    url: '/v1/conversations/:id/suggestions',
    action: 'use',
    tags,
    summary: 'Where an unfiled conversation might belong, proposed by the intelligence service',
    description:
      'Among the active projects where the caller is an editor, best first, at most 10, leaving out projects ' +
      'already accepted or dismissed. A filed conversation has none. When the intelligence service is not ' +
      'configured, unreachable, slow or answers out of contract, the answer is 200 with degraded: true and an ' +
      'empty list.',
    schema: { headers: AsMemberHeaders },
    params: ConversationParams,
    response: Envelope(Suggestions),
    errors: ['conversation_not_found'],
    handler: async ({ params, principal, req, reply }, deps) => {
      const { conversation } = await readableConversation(deps.database.db, principal, asMember(req), params.id);
      return reply.envelope(await suggestionsFor(deps, principal, conversation));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/conversations/:id/suggestions/:projectId/resolve',
    action: 'use',
    tags,
    summary: 'Settle the suggestion naming this project: accept files the conversation there; dismiss hides it',
    description:
      'accept has the checks of a move (editor on the project). dismiss needs only that the caller sees the ' +
      'project. Either way the project is not suggested again; the latest decision is kept.',
    params: SuggestionParams,
    body: Command(ResolveInput),
    response: Envelope(Resolution),
    errors: ['conversation_not_found', 'project_not_found', 'project_archived'],
    run: (ctx, { body, params }) => settleSuggestion(ctx, params.id, params.projectId, body.data.decision),
  }),
];
