import { AppError, Command, Envelope, IdParams, notFound, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import {
  actOnRevision,
  changeDocument,
  documentDetail,
  documentView,
  linkDocument,
  publishRevision,
  registerDocument,
  startRevision,
  unlinkDocument,
} from '../commands/documents.ts';
import { DOCUMENT_PAGE, REVISION_MOVES } from '../domain/documents.ts';
import {
  Document,
  DocumentChange,
  DocumentDetail,
  DocumentInput,
  DocumentListQuery,
  Link,
  LinkInput,
  LinkParams,
  Published,
  PublishInput,
  Revision,
  RevisionActionInput,
  RevisionInput,
  RevisionParams,
} from '../schemas/documents.ts';
import { listDocuments } from '../store/documents.ts';
import { type Routes, route } from './deps.ts';

const tags = ['documents'];

const STATE_TABLE = Object.entries(REVISION_MOVES)
  .map(([action, m]) => `${action}: ${m.from.join(' or ')} to ${m.to}`)
  .join('; ');

export const documentRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/documents',
    action: 'ReadDocuments',
    tags,
    summary: 'The document register, by code; page mode, 50 by default, at most 200',
    description:
      'Filters: doc_type, discipline, owner_fid (exact), project_id (linked to that project: a project, stage, ' +
      'task or milestone link on it), published (true: has a published revision), search (part of the code or title, any case).',
    query: DocumentListQuery,
    response: PageEnvelope(Document),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, DOCUMENT_PAGE.pageSize);
      const { items, total } = await listDocuments(deps.database.db, query, page);
      return reply.envelope(items.map(documentView), pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/documents',
    action: 'ManageDocuments',
    tags,
    summary: 'Register a document; with project_id it is linked to that project at once',
    description:
      'The code is unique ignoring case (409 code_taken). project_id must be an open project (404 ' +
      'project_not_found, 409 project_closed). Publishes document.registered.',
    body: Command(DocumentInput),
    response: Envelope(DocumentDetail),
    status: 201,
    errors: ['code_taken', 'project_not_found', 'project_closed'],
    run: (ctx, { body }) => registerDocument(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/documents/:id',
    action: 'ReadDocuments',
    tags,
    summary: 'One document with its revisions, trail (every action and publication, who and when), links and impacts',
    params: IdParams,
    response: Envelope(DocumentDetail),
    errors: ['document_not_found'],
    handler: async ({ params, reply }, deps) => reply.envelope(await documentDetail(deps.database.db, params.id)),
  }),

  route({
    method: 'PUT',
    url: '/v1/documents/:id',
    action: 'ManageDocuments',
    tags,
    summary: 'Change the fields sent (code, title, doc_type, discipline, owner_fid)',
    description: 'A code another document holds is 409 code_taken. Publishes document.updated.',
    params: IdParams,
    body: Command(DocumentChange),
    response: Envelope(DocumentDetail),
    errors: ['document_not_found', 'code_taken'],
    run: (ctx, { params, body }) => changeDocument(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/documents/:id/revisions',
    action: 'ManageDocuments',
    tags,
    summary: 'Start an internal revision lettered from the current published one, a draft or straight into review',
    description:
      'The letter is the current published number and the next letter on it (after published 2: 2A, 2B, ...; ' +
      'before any publication: A, B, ...). based_on_number is the current published number. straight_to_review: ' +
      'true starts in internal_review. Publishes document.revision_started.',
    params: IdParams,
    body: Command(RevisionInput),
    response: Envelope(Revision),
    status: 201,
    errors: ['document_not_found'],
    run: (ctx, { params, body }) => startRevision(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/document-revisions/:id/actions',
    action: 'ManageDocuments',
    tags,
    summary: 'A step of the revision: prepared, reviewed, submitted_for_approval, approved or rejected',
    description: `The state table: ${STATE_TABLE}. Anything else is 409 invalid_transition, the revision unchanged. Each step is in the trail; publishes document.revision_moved.`,
    params: RevisionParams,
    body: Command(RevisionActionInput),
    response: Envelope(Revision),
    errors: ['revision_not_found', 'invalid_transition'],
    run: (ctx, { params, body }) => actOnRevision(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/document-revisions/:id/publish',
    action: 'PublishDocument',
    tags,
    summary: 'Publish an approved revision as the next number, recording impact, optionally drafting a variation',
    description:
      '409 revision_not_approved (not approved), revision_out_of_date (another revision was published since this ' +
      'one started). The impact (summary, cost_minor, days; empty when not given) is recorded for the publication. ' +
      "draft_variation drafts a variation on the document's one linked project with the impact's cost and days " +
      '(422 validation_failed when it has no project link or several; 409 no_baseline without the award ' +
      'baseline; 409 project_closed). Publishes document.revision_published.',
    params: RevisionParams,
    body: Command(PublishInput),
    response: Envelope(Published),
    errors: [
      'revision_not_found',
      'revision_not_approved',
      'revision_out_of_date',
      'no_baseline',
      'project_not_found',
      'project_closed',
    ],
    run: (ctx, { params, body }) => publishRevision(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/documents/:id/links',
    action: 'ManageDocuments',
    tags,
    summary: 'Link the document to a project, a stage, a task, a milestone or a firm',
    description:
      'target_id names the project (also for a stage, with stage set), the task, the milestone or the firm. ' +
      'Targets on a project need it open (404 project_not_found, task_not_found, milestone_not_found; 409 ' +
      'project_closed). A firm is asked of the vendors service first (404 vendor_not_found; 502 ' +
      'vendors_unavailable). Linking a linked target again answers the existing link. Publishes document.linked.',
    params: IdParams,
    body: Command(LinkInput),
    response: Envelope(Link),
    status: 201,
    errors: [
      'document_not_found',
      'project_not_found',
      'task_not_found',
      'milestone_not_found',
      'project_closed',
      'vendor_not_found',
      'vendors_unavailable',
    ],
    // A firm is asked of vendors before the transaction, for a new request only (a replay answers the stored result).
    options: ({ body, principal }, deps) => ({
      beforeTransaction: async () => {
        if (body.data.target_type !== 'firm') return;
        if (!deps.vendors) throw vendorsUnset();
        const firm = await deps.vendors.firm(body.data.target_id, principal.email ?? principal.id);
        if (!firm) throw notFound('Firm', 'vendor_not_found');
      },
    }),
    run: (ctx, { params, body }) => linkDocument(ctx, params.id, body.data),
  }),

  route({
    method: 'DELETE',
    url: '/v1/documents/:id/links/:linkId',
    action: 'ManageDocuments',
    tags,
    summary: 'Remove a link; answers the removed link',
    params: LinkParams,
    response: Envelope(Link),
    errors: ['document_not_found', 'link_not_found'],
    run: (ctx, { params }) => unlinkDocument(ctx, params.id, params.linkId),
  }),
];

const vendorsUnset = () =>
  new AppError(502, 'vendors_unavailable', 'CONSTRUCTION_VENDORS_URL is not set: firms cannot be checked');
