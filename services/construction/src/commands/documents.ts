import { conflict, notFound, UUID_PATTERN, unprocessable, uuidv7 } from '@platform/kit';
import {
  documentNotFound,
  linkNotFound,
  nextLetter,
  nextRevisionState,
  requirePublishable,
  revisionNotFound,
  variationProject,
} from '../domain/documents.ts';
import { requireBaseline } from '../domain/variations.ts';
import type {
  Document,
  DocumentChange,
  DocumentDetail,
  DocumentInput,
  Link,
  LinkInput,
  Published,
  PublishInput,
  Revision,
  RevisionActionInput,
  RevisionInput,
} from '../schemas/documents.ts';
import type { Db } from '../store/db.ts';
import {
  addTrail,
  codeHolder,
  countStartedOn,
  deleteLink,
  findDocument,
  findLink,
  findLinkById,
  findRevision,
  hasAwardBaseline,
  insertDocument,
  insertImpact,
  insertLink,
  insertRevision,
  insertVariation,
  linkedProjects,
  listImpacts,
  listLinks,
  listRevisions,
  listTrail,
  lockDocument,
  milestoneProject,
  publishedNumber,
  setRevisionState,
  taskProject,
  updateDocument,
} from '../store/documents.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Document control's commands (spec 3): the register, internal revisions and their actions,
 * publication with its impact and an optional drafted variation, and links. Each writes its trail
 * row in the same transaction. Locks go project, then document, then revision.
 */

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));
const id = (ctx: CommandCtx) => uuidv7(ctx.now.getTime());

type DocumentRowLike = NonNullable<Awaited<ReturnType<typeof findDocument>>>;
export const documentView = (d: DocumentRowLike): Document => ({
  id: d.id,
  code: d.code,
  title: d.title,
  doc_type: d.doc_type,
  discipline: d.discipline,
  owner_fid: d.owner_fid,
  current_number: d.current_number === null ? null : Number(d.current_number),
  published: d.current_number !== null,
  created_by: d.created_by,
  created_at: iso(d.created_at),
  updated_at: iso(d.updated_at),
});

type RevisionRowLike = NonNullable<Awaited<ReturnType<typeof findRevision>>>;
export const revisionView = (r: RevisionRowLike): Revision => ({
  ...r,
  state: r.state as Revision['state'],
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
  published_at: isoOrNull(r.published_at),
});

type LinkRowLike = Awaited<ReturnType<typeof listLinks>>[number];
const linkView = (l: LinkRowLike): Link => ({
  ...l,
  target_type: l.target_type as Link['target_type'],
  created_at: iso(l.created_at),
});

/** The document with its revisions, trail, links and impacts (GET /v1/documents/{id}). */
export async function documentDetail(db: Db, documentId: string): Promise<DocumentDetail> {
  const d = await findDocument(db, documentId);
  if (!d) throw documentNotFound();
  const [revisions, trail, links, impacts] = await Promise.all([
    listRevisions(db, d.id),
    listTrail(db, d.id),
    listLinks(db, d.id),
    listImpacts(db, d.id),
  ]);
  return {
    ...documentView(d),
    revisions: revisions.map(revisionView),
    trail: trail.map((t) => ({ ...t, at: iso(t.at) })),
    links: links.map(linkView),
    impacts: impacts.map((i) => ({ ...i, created_at: iso(i.created_at) })),
  };
}

async function requireCodeFree(ctx: CommandCtx, code: string, self?: string) {
  const holder = await codeHolder(ctx.trx, code);
  if (holder && holder.id !== self) throw conflict('code_taken', `Another document holds the code ${code}`);
}

/** Unique-index races on the code end as 409 code_taken, never a 500. */
async function codeGuarded<T>(code: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if ((e as { code?: string }).code === '23505' && String((e as Error).message).includes('documents_code')) {
      throw conflict('code_taken', `Another document holds the code ${code}`);
    }
    throw e;
  }
}

/** Registers a document; with project_id it is linked to that open project at once. */
export async function registerDocument(ctx: CommandCtx, input: DocumentInput): Promise<DocumentDetail> {
  const { trx, principal, now } = ctx;
  if (input.project_id !== undefined) await projectForWrite(ctx, input.project_id);
  const code = input.code.trim();
  await requireCodeFree(ctx, code);
  const documentId = id(ctx);
  await codeGuarded(code, () =>
    insertDocument(
      trx,
      {
        id: documentId,
        code,
        title: input.title.trim(),
        doc_type: input.doc_type,
        discipline: input.discipline,
        owner_fid: input.owner_fid ?? null,
      },
      principal.id,
      now,
    ),
  );
  await addTrail(trx, { id: id(ctx), document_id: documentId, action: 'registered' }, principal.id, now);
  if (input.project_id !== undefined) {
    const link = await insertLink(
      trx,
      {
        id: id(ctx),
        document_id: documentId,
        target_type: 'project',
        target_id: input.project_id,
        stage: null,
        project_id: input.project_id,
      },
      principal.id,
      now,
    );
    await addTrail(
      trx,
      { id: id(ctx), document_id: documentId, action: 'linked', note: `project ${link.target_id}` },
      principal.id,
      now,
    );
  }
  await ctx.emit({
    type: 'document.registered',
    data: { document_id: documentId, code, project_id: input.project_id ?? null, actor_fid: principal.id },
  });
  return documentDetail(trx, documentId);
}

/** Changes the fields sent; a code another document holds is 409 code_taken. */
export async function changeDocument(ctx: CommandCtx, documentId: string, input: DocumentChange) {
  const { trx, principal, now } = ctx;
  if (!(await lockDocument(trx, documentId))) throw documentNotFound();
  const changes = { ...input, ...(input.code === undefined ? {} : { code: input.code.trim() }) };
  if (changes.title !== undefined) changes.title = changes.title.trim();
  const fields = Object.keys(changes);
  // Nothing sent: the document as it is, no trail row, no event.
  if (fields.length === 0) return documentDetail(trx, documentId);
  if (changes.code !== undefined) await requireCodeFree(ctx, changes.code, documentId);
  await codeGuarded(changes.code ?? '', () => updateDocument(trx, documentId, changes, now));
  await addTrail(
    trx,
    { id: id(ctx), document_id: documentId, action: 'updated', note: fields.join(', ') },
    principal.id,
    now,
  );
  await ctx.emit({ type: 'document.updated', data: { document_id: documentId, fields, actor_fid: principal.id } });
  return documentDetail(trx, documentId);
}

/**
 * Starts an internal revision lettered from the current published one (after published 2: 2A,
 * 2B, ...; before any: A, B, ...), a draft or, straight_to_review, in internal review.
 */
export async function startRevision(ctx: CommandCtx, documentId: string, input: RevisionInput): Promise<Revision> {
  const { trx, principal, now } = ctx;
  if (!(await lockDocument(trx, documentId))) throw documentNotFound();
  const current = await publishedNumber(trx, documentId);
  const letter = nextLetter(current, await countStartedOn(trx, documentId, current));
  const state = input.straight_to_review ? 'internal_review' : 'draft';
  const revision = await insertRevision(
    trx,
    { id: id(ctx), document_id: documentId, letter, state, based_on_number: current },
    principal.id,
    now,
  );
  await addTrail(
    trx,
    {
      id: id(ctx),
      document_id: documentId,
      revision_id: revision.id,
      action: 'revision_started',
      to_state: state,
      note: `revision ${letter}`,
    },
    principal.id,
    now,
  );
  await ctx.emit({
    type: 'document.revision_started',
    data: { document_id: documentId, revision_id: revision.id, letter, state, actor_fid: principal.id },
  });
  return revisionView(revision);
}

/** The revision locked for this command (its document locked first), or 404 revision_not_found. */
async function revisionForWrite(ctx: CommandCtx, revisionId: string) {
  const found = await findRevision(ctx.trx, revisionId);
  if (!found) throw revisionNotFound();
  await lockDocument(ctx.trx, found.document_id);
  return (await findRevision(ctx.trx, revisionId, { lock: true })) as NonNullable<typeof found>;
}

/** One step of the state table (domain/documents.ts REVISION_MOVES); another is 409 invalid_transition. */
export async function actOnRevision(ctx: CommandCtx, revisionId: string, input: RevisionActionInput) {
  const { trx, principal, now } = ctx;
  const revision = await revisionForWrite(ctx, revisionId);
  const to = nextRevisionState(revision.state, input.action);
  const moved = await setRevisionState(trx, revision.id, { state: to }, now);
  await addTrail(
    trx,
    {
      id: id(ctx),
      document_id: revision.document_id,
      revision_id: revision.id,
      action: input.action,
      from_state: revision.state,
      to_state: to,
      note: input.note ?? null,
    },
    principal.id,
    now,
  );
  await ctx.emit({
    type: 'document.revision_moved',
    data: {
      document_id: revision.document_id,
      revision_id: revision.id,
      action: input.action,
      from_state: revision.state,
      to_state: to,
      actor_fid: principal.id,
    },
  });
  return revisionView(moved);
}

/**
 * Publishes an approved revision as the next number (max + 1), records its impact and, with
 * draft_variation, drafts a variation on the document's one linked project (422 when it has none
 * or several; 409 no_baseline without the award baseline; 409 project_closed), all in one
 * transaction.
 */
export async function publishRevision(ctx: CommandCtx, revisionId: string, input: PublishInput): Promise<Published> {
  const { trx, principal, now } = ctx;
  const peek = await findRevision(trx, revisionId);
  if (!peek) throw revisionNotFound();
  let projectId: string | null = null;
  if (input.draft_variation) {
    projectId = variationProject(await linkedProjects(trx, peek.document_id));
    await projectForWrite(ctx, projectId);
  }
  const revision = await revisionForWrite(ctx, revisionId);
  const current = await publishedNumber(trx, revision.document_id);
  requirePublishable(revision, current);
  // The registers' rule (CON-127): a variation needs the award baseline.
  if (projectId !== null) requireBaseline(await hasAwardBaseline(trx, projectId));
  const number = (current ?? 0) + 1;
  const published = await setRevisionState(trx, revision.id, { state: 'published', number, published_at: now }, now);
  let variationId: string | null = null;
  if (projectId !== null && input.draft_variation) {
    variationId = id(ctx);
    await insertVariation(
      trx,
      {
        id: variationId,
        project_id: projectId,
        title: input.draft_variation.title.trim(),
        description: input.draft_variation.description ?? '',
        cost_change_minor: input.impact?.cost_minor ?? null,
        days: input.impact?.days ?? null,
        source_revision_id: revision.id,
      },
      principal.id,
      now,
    );
  }
  const impact = await insertImpact(
    trx,
    {
      id: id(ctx),
      document_id: revision.document_id,
      revision_id: revision.id,
      number,
      summary: input.impact?.summary ?? '',
      cost_minor: input.impact?.cost_minor ?? null,
      days: input.impact?.days ?? null,
      variation_id: variationId,
    },
    principal.id,
    now,
  );
  await addTrail(
    trx,
    {
      id: id(ctx),
      document_id: revision.document_id,
      revision_id: revision.id,
      action: 'published',
      from_state: revision.state,
      to_state: 'published',
      note: `revision ${number}`,
    },
    principal.id,
    now,
  );
  await ctx.emit({
    type: 'document.revision_published',
    data: {
      document_id: revision.document_id,
      revision_id: revision.id,
      number,
      variation_id: variationId,
      actor_fid: principal.id,
    },
  });
  return {
    ...revisionView(published),
    impact: { ...impact, created_at: iso(impact.created_at) },
    variation_id: variationId,
  };
}

const UUID = new RegExp(UUID_PATTERN);
function requireUuidTarget(input: LinkInput) {
  if (!UUID.test(input.target_id)) {
    throw unprocessable('validation_failed', `A ${input.target_type} is named by its uuid`, 'data/target_id');
  }
}

/**
 * Links the document to a project, a stage (target_id the project, stage its name), a task, a
 * milestone or a firm (checked with vendors before the transaction). A target on a project needs
 * the project open (projectForWrite). Linking a linked target again answers the existing link.
 */
export async function linkDocument(ctx: CommandCtx, documentId: string, input: LinkInput): Promise<Link> {
  const { trx, principal, now } = ctx;
  const stage = input.target_type === 'stage' ? (input.stage ?? null) : null;
  if (input.target_type === 'stage' && stage === null) {
    throw unprocessable('validation_failed', 'A stage link names the stage', 'data/stage');
  }
  if (input.target_type !== 'stage' && input.stage !== undefined) {
    throw unprocessable('validation_failed', 'Only a stage link names a stage', 'data/stage');
  }
  let projectId: string | null = null;
  if (input.target_type !== 'firm') {
    requireUuidTarget(input);
    if (input.target_type === 'project' || input.target_type === 'stage') projectId = input.target_id;
    if (input.target_type === 'milestone') {
      projectId = (await milestoneProject(trx, input.target_id)) ?? null;
      if (projectId === null) throw notFound('Milestone', 'milestone_not_found');
    }
    if (input.target_type === 'task') {
      projectId = (await taskProject(trx, input.target_id)) ?? null;
      if (projectId === null) throw notFound('Task', 'task_not_found');
    }
    await projectForWrite(ctx, projectId as string);
  }
  if (!(await lockDocument(trx, documentId))) throw documentNotFound();
  const target = { target_type: input.target_type, target_id: input.target_id, stage };
  const existing = await findLink(trx, documentId, target);
  if (existing) return linkView(existing);
  const link = await insertLink(
    trx,
    { id: id(ctx), document_id: documentId, ...target, project_id: projectId },
    principal.id,
    now,
  );
  await addTrail(
    trx,
    {
      id: id(ctx),
      document_id: documentId,
      action: 'linked',
      note: `${input.target_type} ${input.target_id}${stage ? ` ${stage}` : ''}`,
    },
    principal.id,
    now,
  );
  await ctx.emit({
    type: 'document.linked',
    data: {
      document_id: documentId,
      link_id: link.id,
      target_type: input.target_type,
      target_id: input.target_id,
      actor_fid: principal.id,
    },
  });
  return linkView(link);
}

/** Removes a link (404 link_not_found, a link of another document included); answers the removed link. */
export async function unlinkDocument(ctx: CommandCtx, documentId: string, linkId: string): Promise<Link> {
  const { trx, principal, now } = ctx;
  if (!(await lockDocument(trx, documentId))) throw documentNotFound();
  const link = await findLinkById(trx, documentId, linkId);
  if (!link) throw linkNotFound();
  await deleteLink(trx, link.id);
  await addTrail(
    trx,
    {
      id: id(ctx),
      document_id: documentId,
      action: 'unlinked',
      note: `${link.target_type} ${link.target_id}${link.stage ? ` ${link.stage}` : ''}`,
    },
    principal.id,
    now,
  );
  await ctx.emit({
    type: 'document.unlinked',
    data: { document_id: documentId, link_id: link.id, target_type: link.target_type, actor_fid: principal.id },
  });
  return linkView(link);
}
