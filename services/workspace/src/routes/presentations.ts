import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import {
  commitResume,
  commitRevision,
  commitShare,
  createPresentation,
  type PreparedRender,
  type PreparedShare,
  prepareBuild,
  prepareEdit,
  prepareResume,
  prepareShare,
  presentationForWork,
} from '../commands/presentations.ts';
import {
  communicationsNotConfigured,
  DECK_MAX_BYTES,
  PRESENTATION_PAGE,
  presentationDocumentsNotConfigured,
  presentationFileUnavailable,
  presentationNotFound,
  requireRendered,
  revisionNotFound,
  slides,
} from '../domain/presentations.ts';
import { AsMemberHeaders, Command, OptionalDataCommand, ProjectParams } from '../schemas/common.ts';
import {
  EditInput,
  EmptyInput,
  FileQuery,
  Presentation,
  PresentationInput,
  PresentationListQuery,
  PresentationParams,
  PresentationWithRevisions,
  Revision,
  ShareInput,
} from '../schemas/presentations.ts';
import {
  findPresentation,
  findRevision,
  latestRendered,
  listPresentations,
  listRevisions,
} from '../store/presentations.ts';
import './feed-deps.ts';
import './output-deps.ts';
import './presentation-deps.ts';
import { asMember, type RouteDeps, type Routes, readableProject, route } from './deps.ts';

const tags = ['presentations'];

/**
 * What each render or share worked out before its transaction, handed to the command's run. The
 * kit calls `options` (its beforeTransaction) and then `run` for one request, so the request is
 * the key; a replay runs neither.
 */
const prepared = new WeakMap<FastifyRequest, unknown>();
const take = <T>(req: FastifyRequest): T => {
  if (!prepared.has(req)) throw new Error('The render was not prepared before the transaction');
  return prepared.get(req) as T;
};

const renderServices = (deps: RouteDeps) => ({ model: deps.model, documents: deps.documents });

const idempotencyKey = (req: FastifyRequest) => {
  const v = req.headers['idempotency-key'];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

/** The presentation as a reader may see it: 404 project_not_found or presentation_not_found. */
async function readablePresentation(
  deps: RouteDeps,
  input: Parameters<typeof readableProject>[1],
  projectId: string,
  presentationId: string,
) {
  const { project } = await readableProject(deps, input, projectId);
  const p = await findPresentation(deps.database.db, project.id, presentationId);
  if (!p) throw presentationNotFound();
  return p;
}

const WORK_ERRORS = ['project_not_found', 'project_archived', 'presentation_not_found'] as const;

const RENDER =
  'The render runs inside the request, before the command’s transaction: the deck (one self-contained HTML ' +
  'document, text/html) is stored in the documents service. A broker or documents service that is down or ' +
  'failing does not fail the request: the revision is written `failed` with `failure_reason`, and POST ' +
  '.../resume renders it again.';

export const presentationRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/presentations',
    action: 'use',
    tags,
    summary: "The project's customer presentations (viewers), newest first",
    description:
      'Page mode, 50 by default, at most 200. Revisions are read with GET .../presentations/{presentationId}.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: PresentationListQuery,
    response: PageEnvelope(Presentation),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const page = pageRequest(input.query, PRESENTATION_PAGE.pageSize);
      const { items, total } = await listPresentations(deps.database.db, project.id, page);
      return input.reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/presentations',
    action: 'use',
    tags,
    summary: 'Create a customer presentation from an outline and its sources (editors)',
    description:
      'data: {title (1..200 trimmed), outline: [{title, notes?}] (1 to 20 slides; titles 1..200, notes at most ' +
      '4,000), sources?: [{title, reference}] (at most 50; reference a URL or outside id, no spaces)}. 201 with the ' +
      'presentation, latest_revision 0: POST .../build renders revision 1.',
    params: ProjectParams,
    body: Command(PresentationInput),
    response: Envelope(Presentation),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'invalid_presentation_title',
      'invalid_outline',
      'invalid_sources',
    ],
    run: (ctx, { params, body }) => createPresentation(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/presentations/:presentationId',
    action: 'use',
    tags,
    summary: 'One presentation with every revision, newest first (viewers)',
    description: 'Each revision says whether it is the shared one (`shared`); older revisions stay readable.',
    schema: { headers: AsMemberHeaders },
    params: PresentationParams,
    response: Envelope(PresentationWithRevisions),
    errors: ['project_not_found', 'presentation_not_found'],
    handler: async (input, deps) => {
      const p = await readablePresentation(deps, input, input.params.id, input.params.presentationId);
      return input.reply.envelope({ ...p, revisions: await listRevisions(deps.database.db, p) });
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/presentations/:presentationId/build',
    action: 'use',
    tags,
    summary: 'Render the outline: the model writes each slide, and revision N + 1 results (editors)',
    description:
      `Each slide's text is one chat completion through the model broker's relay, on behalf of the caller. ${RENDER} ` +
      '201 with the revision (status rendered or failed). 503 model_broker_not_configured (BROKER_URL unset) or ' +
      'documents_not_configured (DOCUMENTS_URL unset): nothing written.',
    params: PresentationParams,
    body: OptionalDataCommand(EmptyInput),
    emptyBody: true,
    response: Envelope(Revision),
    status: 201,
    errors: [...WORK_ERRORS, 'model_broker_not_configured', 'documents_not_configured'],
    options: (input, deps) => ({
      beforeTransaction: async () => {
        const { params, principal, req } = input;
        const p = await presentationForWork(
          deps.database.db,
          principal,
          asMember(req),
          params.id,
          params.presentationId,
        );
        prepared.set(req, await prepareBuild(renderServices(deps), principal, p));
      },
    }),
    run: (ctx, { params, req }) =>
      commitRevision(ctx, params.id, params.presentationId, 'build', take<PreparedRender>(req)),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/presentations/:presentationId/revisions',
    action: 'use',
    tags,
    summary: "Edit the slides: revision N + 1 results with the editor's slides (editors)",
    description:
      `data: {slides: [{title, body}]} (1 to 20; titles 1..200 trimmed, bodies at most 4,000; blank lines part ` +
      `paragraphs), the whole deck in order. ${RENDER} 201 with the revision. 503 documents_not_configured: ` +
      'nothing written.',
    params: PresentationParams,
    body: Command(EditInput),
    response: Envelope(Revision),
    status: 201,
    errors: [...WORK_ERRORS, 'invalid_slides', 'documents_not_configured'],
    options: (input, deps) => ({
      beforeTransaction: async () => {
        const { params, principal, req, body } = input;
        const edited = slides(body.data.slides);
        const p = await presentationForWork(
          deps.database.db,
          principal,
          asMember(req),
          params.id,
          params.presentationId,
        );
        prepared.set(req, await prepareEdit(renderServices(deps), principal, p, edited));
      },
    }),
    run: (ctx, { params, req }) =>
      commitRevision(ctx, params.id, params.presentationId, 'edit', take<PreparedRender>(req)),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/presentations/:presentationId/resume',
    action: 'use',
    tags,
    summary: "Retry the latest revision's failed render: the render runs again (editors)",
    description:
      'Renders the same revision again (attempts + 1): the model is asked again only when it wrote no slides the ' +
      'first time. 200 with the revision, rendered, or failed again with its new reason. 409 ' +
      'presentation_render_not_failed when the latest revision did not fail (or there is none).',
    params: PresentationParams,
    body: OptionalDataCommand(EmptyInput),
    emptyBody: true,
    response: Envelope(Revision),
    errors: [
      ...WORK_ERRORS,
      'presentation_render_not_failed',
      'model_broker_not_configured',
      'documents_not_configured',
    ],
    options: (input, deps) => ({
      beforeTransaction: async () => {
        const { params, principal, req } = input;
        const db = deps.database.db;
        const p = await presentationForWork(db, principal, asMember(req), params.id, params.presentationId);
        prepared.set(req, await prepareResume(db, renderServices(deps), principal, p));
      },
    }),
    run: (ctx, { params, req }) =>
      commitResume(ctx, params.id, params.presentationId, take<Awaited<ReturnType<typeof prepareResume>>>(req)),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/presentations/:presentationId/share',
    action: 'use',
    tags,
    summary: 'Share a rendered revision through the communications service and pin it as the shared one (editors)',
    description:
      'data: {recipients: [email] (1 to 50), revision? (default the latest rendered), message? (at most 2,000)}. ' +
      'The communications service is asked before the transaction; then the revision is pinned (the ' +
      'presentation’s shared_revision; that revision reads `shared: true`). 200 with the revision. 503 ' +
      'communications_not_configured when COMMUNICATIONS_URL is unset, communications_unavailable when the service ' +
      'does not take it: nothing written either way. 409 presentation_revision_not_rendered for a failed revision.',
    params: PresentationParams,
    body: Command(ShareInput),
    response: Envelope(Revision),
    errors: [
      ...WORK_ERRORS,
      'presentation_revision_not_found',
      'presentation_revision_not_rendered',
      'invalid_recipients',
      'invalid_share_message',
      'communications_not_configured',
      'communications_unavailable',
    ],
    options: (input, deps) => ({
      beforeTransaction: async () => {
        const { params, principal, req, body } = input;
        if (!deps.communications) throw communicationsNotConfigured();
        const db = deps.database.db;
        const p = await presentationForWork(db, principal, asMember(req), params.id, params.presentationId);
        prepared.set(req, await prepareShare(db, deps.communications, principal, p, body.data, idempotencyKey(req)));
      },
    }),
    run: (ctx, { params, req }) => commitShare(ctx, params.id, params.presentationId, take<PreparedShare>(req)),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/presentations/:presentationId/file',
    action: 'use',
    tags,
    summary: "One revision's rendered file (viewers): its bytes from the documents service, with its content type",
    description:
      'revision=N (default: the shared revision, else the latest rendered). 200 with the bytes (text/html; ' +
      'charset=utf-8, a self-contained slide deck). 404 presentation_revision_not_found, 409 ' +
      'presentation_revision_not_rendered (its render failed), 503 documents_not_configured or ' +
      'documents_unavailable.',
    schema: {
      headers: AsMemberHeaders,
      produces: ['text/html'],
    },
    params: PresentationParams,
    query: FileQuery,
    response: Type.String({ description: 'The file’s bytes' }),
    errors: [
      'project_not_found',
      'presentation_not_found',
      'presentation_revision_not_found',
      'presentation_revision_not_rendered',
      'documents_not_configured',
      'documents_unavailable',
    ],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const p = await readablePresentation(deps, input, input.params.id, input.params.presentationId);
      const n = input.query.revision;
      let chosen = n === undefined ? undefined : await findRevision(db, p, n);
      if (n !== undefined && !chosen) throw revisionNotFound(n);
      if (n === undefined) {
        chosen =
          p.shared_revision !== null ? await findRevision(db, p, p.shared_revision) : await latestRendered(db, p);
      }
      const r = requireRendered(chosen, 'the file');
      if (!deps.documents) throw presentationDocumentsNotConfigured();
      const read = await deps.documents.readBack(r.document_id ?? '', DECK_MAX_BYTES);
      if (!read.ok) throw presentationFileUnavailable(`${read.code}: ${read.message}`);
      return input.reply
        .header('content-type', r.content_type ?? 'application/octet-stream')
        .header('x-presentation-revision', String(r.revision))
        .header('etag', `"${r.sha256 ?? read.sha256}"`)
        .send(read.bytes);
    },
  }),
];
