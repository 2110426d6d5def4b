import { conflict, type Principal, unprocessable, uuidv7 } from '@platform/kit';
import type { ModelClient } from '../clients/broker.ts';
import type { Communications } from '../clients/communications.ts';
import type { Documents } from '../clients/documents.ts';
import { storeDeck } from '../clients/presentation-files.ts';
import {
  brokerNotConfigured,
  communicationsNotConfigured,
  communicationsUnavailable,
  DECK_CONTENT_TYPE,
  deckFilename,
  failureReason,
  type OutlineEntry,
  outline,
  presentationDocumentsNotConfigured,
  presentationNotFound,
  presentationTitle,
  recipients,
  renderDeck,
  requireFailedLatest,
  requireRendered,
  revisionNotFound,
  type Slide,
  type Source,
  sha256Hex,
  shareMessage,
  slidePrompt,
  sources,
} from '../domain/presentations.ts';
import { requireActiveProject, requireRole } from '../domain/roles.ts';
import type { Presentation, PresentationInput, Revision, ShareInput } from '../schemas/presentations.ts';
import type { Db } from '../store/db.ts';
import {
  findPresentation,
  findRevision,
  insertPresentation,
  insertRevision,
  latestRendered,
  pinShared,
  type RenderOutcome,
  rerenderRevision,
} from '../store/presentations.ts';
import { visibleProject } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/** The outside services a render uses: the model broker (slides' text) and the documents service (the file). */
export interface RenderServices {
  model?: ModelClient;
  documents?: Documents;
  /** The PUT of the file's bytes to the documents service's write URL. */
  fetch?: typeof fetch;
}

/** The longest slide text asked of the model, in tokens. */
const SLIDE_MAX_TOKENS = 300;

/** POST /v1/projects/{id}/presentations: editors; 201 with the presentation (no revision yet). */
export async function createPresentation(
  ctx: CommandCtx,
  projectId: string,
  input: PresentationInput,
): Promise<Presentation> {
  const title = presentationTitle(input.title);
  const entries = outline(input.outline);
  const list = sources(input.sources);
  await projectForWrite(ctx, projectId, 'editor');
  const p = await insertPresentation(
    ctx.trx,
    {
      id: uuidv7(ctx.now.getTime()),
      project_id: projectId,
      title,
      outline: entries,
      sources: list,
      created_by: ctx.principal.id,
    },
    ctx.now,
  );
  await ctx.emit({
    type: 'project.presentation_created',
    data: { projectId, presentationId: p.id, actor: ctx.principal.id },
  });
  return p;
}

/**
 * The checks of a presentation command before its transaction (so nothing outside is asked for a
 * caller who would be refused): the caller is an editor of the active project (404 when they
 * cannot see it, 403 below editor, 409 project_archived), and the presentation is on it.
 */
export async function presentationForWork(
  db: Db,
  principal: Principal,
  asMember: boolean,
  projectId: string,
  presentationId: string,
): Promise<Presentation> {
  const found = await visibleProject(db, principal, asMember, projectId);
  requireRole(found.access, 'editor');
  requireActiveProject(found.project);
  const p = await findPresentation(db, projectId, presentationId);
  if (!p) throw presentationNotFound();
  return p;
}

/** The same inside the transaction, the project and the presentation locked (revision numbers follow commit order). */
async function presentationForWrite(ctx: CommandCtx, projectId: string, presentationId: string) {
  await projectForWrite(ctx, projectId, 'editor');
  const p = await findPresentation(ctx.trx, projectId, presentationId, { lock: true });
  if (!p) throw presentationNotFound();
  return p;
}

/** What a render worked out before its transaction: the slides (null when the model wrote none) and the outcome. */
export interface PreparedRender {
  slides: Slide[] | null;
  outcome: RenderOutcome;
}

const onBehalfOf = (principal: Principal) => principal.email ?? principal.id;

/**
 * The model writes each slide's text from its outline entry and the sources (one chat completion
 * per slide through the broker's relay, all at once, each bounded by the client's timeout). Any
 * slide failing fails the whole: the reason names the broker.
 */
async function writeSlides(
  model: ModelClient,
  principal: Principal,
  p: { title: string; outline: OutlineEntry[]; sources: Source[] },
): Promise<{ ok: true; slides: Slide[] } | { ok: false; reason: string }> {
  try {
    const bodies = await Promise.all(
      p.outline.map((entry, i) => {
        const { system, prompt } = slidePrompt(p.title, entry, i, p.outline.length, p.sources);
        return model.write({ onBehalfOf: onBehalfOf(principal), system, prompt, maxTokens: SLIDE_MAX_TOKENS });
      }),
    );
    return { ok: true, slides: p.outline.map((entry, i) => ({ title: entry.title, body: bodies[i] ?? '' })) };
  } catch (e) {
    return { ok: false, reason: failureReason('model', (e as Error).message) };
  }
}

/** Renders the deck and stores it in the documents service; a failure is the outcome, never thrown. */
async function storeRendered(
  services: RenderServices,
  documents: Documents,
  principal: Principal,
  p: Presentation,
  slides: Slide[],
): Promise<RenderOutcome> {
  const bytes = renderDeck({ title: p.title, slides, sources: p.sources });
  const stored = await storeDeck(
    documents,
    {
      presentationId: p.id,
      projectId: p.project_id,
      filename: deckFilename(p.title),
      contentType: DECK_CONTENT_TYPE,
      bytes,
      renderedBy: principal.id,
      // One attempt, one document: a fresh key per render attempt.
      idempotencyKey: `workspace-presentation-render-${uuidv7()}`,
    },
    services.fetch,
  );
  if (!stored.ok) return { status: 'failed', failure_reason: failureReason('documents', stored.detail) };
  return {
    status: 'rendered',
    document_id: stored.documentId,
    content_type: DECK_CONTENT_TYPE,
    size_bytes: bytes.length,
    sha256: sha256Hex(bytes),
  };
}

/**
 * Build's work before the transaction: the model writes the slides from the outline, the deck is
 * rendered and stored. Needs both services configured (503 model_broker_not_configured or
 * documents_not_configured, nothing written); a service that is down or failing gives a failed
 * outcome, which the transaction records.
 */
export async function prepareBuild(
  services: RenderServices,
  principal: Principal,
  p: Presentation,
): Promise<PreparedRender> {
  if (!services.model) throw brokerNotConfigured();
  if (!services.documents) throw presentationDocumentsNotConfigured();
  const written = await writeSlides(services.model, principal, p);
  if (!written.ok) return { slides: null, outcome: { status: 'failed', failure_reason: written.reason } };
  return {
    slides: written.slides,
    outcome: await storeRendered(services, services.documents, principal, p, written.slides),
  };
}

/** An edit's work before the transaction: the editor's slides rendered and stored. */
export async function prepareEdit(
  services: RenderServices,
  principal: Principal,
  p: Presentation,
  edited: Slide[],
): Promise<PreparedRender> {
  if (!services.documents) throw presentationDocumentsNotConfigured();
  return { slides: edited, outcome: await storeRendered(services, services.documents, principal, p, edited) };
}

/**
 * Resume's work before the transaction: the latest revision must have failed (409
 * presentation_render_not_failed); its render runs again, the model asked again only when it
 * wrote no slides the first time.
 */
export async function prepareResume(
  db: Db,
  services: RenderServices,
  principal: Principal,
  p: Presentation,
): Promise<PreparedRender & { revision: number; attempts: number }> {
  const latest = p.latest_revision > 0 ? await findRevision(db, p, p.latest_revision) : undefined;
  const revision = requireFailedLatest(latest);
  const attempts = latest?.attempts ?? 1;
  let slides = latest?.slides ?? null;
  if (slides === null) {
    if (!services.model) throw brokerNotConfigured();
    if (!services.documents) throw presentationDocumentsNotConfigured();
    const written = await writeSlides(services.model, principal, p);
    if (!written.ok)
      return { revision, attempts, slides: null, outcome: { status: 'failed', failure_reason: written.reason } };
    slides = written.slides;
  }
  if (!services.documents) throw presentationDocumentsNotConfigured();
  return {
    revision,
    attempts,
    slides,
    outcome: await storeRendered(services, services.documents, principal, p, slides),
  };
}

async function emitRender(ctx: CommandCtx, p: Presentation, r: Revision) {
  const base = { projectId: p.project_id, presentationId: p.id, revision: r.revision, attempts: r.attempts };
  if (r.status === 'rendered' && r.document_id) {
    await ctx.emit({
      type: 'project.presentation_rendered',
      data: { ...base, documentId: r.document_id, actor: ctx.principal.id },
    });
  } else {
    await ctx.emit({ type: 'project.presentation_render_failed', data: { ...base, actor: ctx.principal.id } });
  }
}

/**
 * Build and edit's transaction: revision N + 1 written with what the render produced (rendered, or
 * failed with its reason), then project.presentation_revised and _rendered or _render_failed.
 */
export async function commitRevision(
  ctx: CommandCtx,
  projectId: string,
  presentationId: string,
  origin: 'build' | 'edit',
  prepared: PreparedRender,
): Promise<Revision> {
  const p = await presentationForWrite(ctx, projectId, presentationId);
  const r = await insertRevision(
    ctx.trx,
    p,
    { origin, slides: prepared.slides, created_by: ctx.principal.id, outcome: prepared.outcome },
    ctx.now,
  );
  await ctx.emit({
    type: 'project.presentation_revised',
    data: {
      projectId,
      presentationId: p.id,
      revision: r.revision,
      origin,
      status: r.status,
      actor: ctx.principal.id,
    },
  });
  await emitRender(ctx, p, r);
  return r;
}

/**
 * Resume's transaction: the same revision, still failed and not resumed meanwhile (else 409
 * presentation_render_not_failed), takes the new outcome; attempts counts it.
 */
export async function commitResume(
  ctx: CommandCtx,
  projectId: string,
  presentationId: string,
  prepared: PreparedRender & { revision: number; attempts: number },
): Promise<Revision> {
  const p = await presentationForWrite(ctx, projectId, presentationId);
  const current = await findRevision(ctx.trx, p, prepared.revision);
  if (p.latest_revision !== prepared.revision || current?.attempts !== prepared.attempts) {
    throw conflict(
      'presentation_render_not_failed',
      `Revision ${prepared.revision} was rendered again or followed by another revision meanwhile`,
    );
  }
  requireFailedLatest(current);
  const r = await rerenderRevision(ctx.trx, p, prepared.revision, prepared.slides, prepared.outcome, ctx.now);
  await emitRender(ctx, p, r);
  return r;
}

/** What a share asked of the communications service before its transaction. */
export interface PreparedShare {
  revision: number;
  shareId: string;
}

/**
 * Share's work before the transaction: the revision (data.revision, default the latest rendered)
 * must be rendered (404 presentation_revision_not_found, 409 presentation_revision_not_rendered);
 * the communications service sends it to the recipients. COMMUNICATIONS_URL unset: 503
 * communications_not_configured; a refusal of the recipients 422 invalid_recipients; anything
 * else 503 communications_unavailable. Nothing is written on any of them.
 */
export async function prepareShare(
  db: Db,
  communications: Communications | undefined,
  principal: Principal,
  p: Presentation,
  input: ShareInput,
  idempotencyKey: string,
): Promise<PreparedShare> {
  if (!communications) throw communicationsNotConfigured();
  const to = recipients(input.recipients);
  const message = shareMessage(input.message);
  let chosen: Revision | undefined;
  if (input.revision !== undefined) {
    chosen = await findRevision(db, p, input.revision);
    if (!chosen) throw revisionNotFound(input.revision);
  } else {
    chosen = await latestRendered(db, p);
  }
  const rendered = requireRendered(chosen, 'a share');
  const sent = await communications.sharePresentation(
    {
      presentation_id: p.id,
      project_id: p.project_id,
      revision: rendered.revision,
      title: p.title,
      document_id: rendered.document_id ?? '',
      content_type: rendered.content_type ?? DECK_CONTENT_TYPE,
      recipients: to,
      message,
    },
    onBehalfOf(principal),
    `workspace-presentation-share-${p.id}-${idempotencyKey}`,
  );
  if (!sent.ok) {
    if (sent.status === 422) throw unprocessable('invalid_recipients', sent.message, 'body/data/recipients');
    throw communicationsUnavailable(`${sent.code}: ${sent.message}`);
  }
  return { revision: rendered.revision, shareId: sent.data.share_id };
}

/** Share's transaction: the revision pinned as the shared one; project.presentation_shared. */
export async function commitShare(
  ctx: CommandCtx,
  projectId: string,
  presentationId: string,
  prepared: PreparedShare,
): Promise<Revision> {
  const p = await presentationForWrite(ctx, projectId, presentationId);
  const pinned = await pinShared(
    ctx.trx,
    p,
    { revision: prepared.revision, shared_by: ctx.principal.id, share_id: prepared.shareId },
    ctx.now,
  );
  const r = await findRevision(ctx.trx, pinned, prepared.revision);
  if (!r) throw revisionNotFound(prepared.revision);
  await ctx.emit({
    type: 'project.presentation_shared',
    data: {
      projectId,
      presentationId: p.id,
      revision: r.revision,
      shareId: prepared.shareId,
      actor: ctx.principal.id,
    },
  });
  return r;
}
