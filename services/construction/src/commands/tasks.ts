import { uuidv7 } from '@platform/kit';
import {
  changedFields,
  dependencyExists as dependencyExistsError,
  documentNotFound,
  linkNotFound,
  packageNotFound,
  planLinks,
  planProgress,
  primaryLinkConflict,
  requireDocumentsCurrent,
  requireNoCycle,
  requirePackageOfProject,
  requirePlannedOrder,
  requirePrerequisitesDone,
  revisionNotFound,
  type TaskRecord,
  taskNotFound,
  taskView,
} from '../domain/tasks.ts';
import type {
  DependencyInput,
  LinkInput,
  NoteInput,
  ProgressInput,
  TaskDetail,
  TaskDocumentInput,
  TaskInput,
  TaskNote,
  TaskPatch,
} from '../schemas/tasks.ts';
import type { Db } from '../store/db.ts';
import { refreshProjectProgress } from '../store/figures.ts';
import {
  deleteLink,
  deleteTaskDocument,
  dependencyExists,
  dependentsOf,
  documentsNotCurrent,
  documentsOf,
  findDocument,
  findLink,
  findPackage,
  findRevision,
  findTask,
  findTaskDocument,
  insertDependency,
  insertLinks,
  insertNote,
  insertTask,
  linksOf,
  lockDependencyGraph,
  notesOf,
  prerequisitesOf,
  refreshTaskPackage,
  type TaskChanges,
  unfinishedPrerequisites,
  updateTask,
  upsertTaskDocument,
  waitsFor,
} from '../store/tasks.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Task commands (spec 3, Tasks). Every write locks the task's primary project first
 * (projectForWrite: 404 project_not_found, 409 project_closed), then the task. Writes that name
 * other projects lock all of them in id order, so two writes never wait for each other in a circle.
 */

/** The task with its links, prerequisites, dependents, notes and required documents. */
export async function taskDetail(db: Db, task: TaskRecord): Promise<TaskDetail> {
  const links = await linksOf(db, task.id);
  const prerequisites = await prerequisitesOf(db, task.id);
  const dependents = await dependentsOf(db, task.id);
  const notes = await notesOf(db, task.id);
  const documents = await documentsOf(db, task.id);
  return {
    ...taskView(task),
    links: links.map((l) => ({ ...l, created_at: l.created_at.toISOString() })),
    prerequisites,
    dependents,
    notes: notes.map((n) => ({ ...n, created_at: n.created_at.toISOString() })),
    documents: documents.map((d) => ({
      ...d,
      created_at: d.created_at.toISOString(),
      updated_at: d.updated_at.toISOString(),
    })),
  };
}

/** Locks these projects in id order, each open (404 project_not_found, 409 project_closed). */
async function projectsForWrite(ctx: CommandCtx, ids: readonly string[]) {
  for (const id of [...new Set(ids)].sort()) await projectForWrite(ctx, id);
}

/**
 * The task locked for this command after its primary project (and `others`, in id order): 404
 * task_not_found. A task's primary project never changes, so reading it unlocked first is safe.
 */
async function taskForWrite(ctx: CommandCtx, taskId: string, others: readonly string[] = []): Promise<TaskRecord> {
  const seen = await findTask(ctx.trx, taskId);
  if (!seen) throw taskNotFound();
  await projectsForWrite(ctx, [seen.project_id, ...others]);
  const task = await findTask(ctx.trx, taskId, { lock: true });
  if (!task) throw taskNotFound();
  return task;
}

/** A package named on a task: it exists (404 package_not_found) and is of the task's project (422). */
async function requirePackage(trx: Db, packageId: string, projectId: string) {
  const pkg = await findPackage(trx, packageId);
  if (!pkg) throw packageNotFound();
  requirePackageOfProject(pkg, projectId);
}

/** Packages measured by tasks take the mean of their tasks again, then the project's progress. */
async function refreshPackages(trx: Db, projectId: string, packageIds: readonly (string | null)[]) {
  const ids = [...new Set(packageIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return;
  for (const id of ids) await refreshTaskPackage(trx, id);
  await refreshProjectProgress(trx, projectId);
}

/**
 * Creates a task on its primary project (the primary link) and links it to each other project
 * named (affects by default) (CON-078..081). Every project named is open; the package is one of the
 * primary project's.
 */
export async function createTask(ctx: CommandCtx, input: TaskInput): Promise<TaskDetail> {
  const { trx, principal, now } = ctx;
  const links = planLinks(input.project_id, input.links ?? []);
  await projectsForWrite(
    ctx,
    links.map((l) => l.project_id),
  );
  const planned_start = input.planned_start ?? null;
  const planned_finish = input.planned_finish ?? null;
  requirePlannedOrder(planned_start, planned_finish);
  const package_id = input.package_id ?? null;
  if (package_id !== null) await requirePackage(trx, package_id, input.project_id);
  const task = await insertTask(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: input.project_id,
      title: input.title,
      description: input.description ?? '',
      owner_fid: input.owner_fid ?? null,
      package_id,
      vendor_id: input.vendor_id ?? null,
      planned_start,
      planned_finish,
      created_by: principal.id,
    },
    now,
  );
  await insertLinks(trx, task.id, links, principal.id, now);
  await refreshPackages(trx, task.project_id, [package_id]);
  await ctx.emit({
    type: 'task.created',
    data: {
      task_id: task.id,
      project_id: task.project_id,
      linked_project_ids: links.slice(1).map((l) => l.project_id),
      actor_fid: principal.id,
    },
  });
  return taskDetail(trx, task);
}

/**
 * Changes the fields sent (null clears an optional one); fields not sent stay (CON-088). A new
 * package is one of the primary project's; both packages' progress is refreshed when it moves.
 * An edit that changes nothing answers the task without an event.
 */
export async function editTask(ctx: CommandCtx, taskId: string, input: TaskPatch): Promise<TaskDetail> {
  const { trx, principal, now } = ctx;
  const current = await taskForWrite(ctx, taskId);
  const changed = changedFields(current, input);
  if (changed.length === 0) return taskDetail(trx, current);
  const changes = Object.fromEntries(changed.map((k) => [k, input[k as keyof TaskPatch]])) as TaskChanges;
  requirePlannedOrder(
    changes.planned_start !== undefined ? changes.planned_start : current.planned_start,
    changes.planned_finish !== undefined ? changes.planned_finish : current.planned_finish,
  );
  if (changes.package_id) await requirePackage(trx, changes.package_id, current.project_id);
  const updated = await updateTask(trx, current.id, changes, now);
  if (changes.package_id !== undefined) {
    await refreshPackages(trx, current.project_id, [current.package_id, updated.package_id]);
  }
  await ctx.emit({
    type: 'task.updated',
    data: { task_id: current.id, project_id: current.project_id, changed_fields: changed, actor_fid: principal.id },
  });
  return taskDetail(trx, updated);
}

/**
 * Records progress: status, percentage, forecast finish, blocked reason (CON-089). Becoming done
 * sets 100 percent and needs every prerequisite done (409 unfinished_prerequisite, CON-090) and
 * every required document current (409 documents_not_current, CON-091). A package measured by
 * tasks takes the mean of its tasks, and the project's progress follows, in this transaction.
 */
export async function recordTaskProgress(ctx: CommandCtx, taskId: string, input: ProgressInput): Promise<TaskDetail> {
  const { trx, principal, now } = ctx;
  const current = await taskForWrite(ctx, taskId);
  const { next, becomesDone } = planProgress(current, input);
  if (becomesDone) {
    requirePrerequisitesDone(await unfinishedPrerequisites(trx, current.id));
    requireDocumentsCurrent(await documentsNotCurrent(trx, current.id));
  }
  const unchanged = (Object.keys(next) as (keyof typeof next)[]).every((k) => next[k] === current[k]);
  if (unchanged) return taskDetail(trx, current);
  const updated = await updateTask(trx, current.id, next, now);
  if (updated.percent_complete !== current.percent_complete) {
    await refreshPackages(trx, current.project_id, [current.package_id]);
  }
  await ctx.emit({
    type: 'task.progressed',
    data: {
      task_id: current.id,
      project_id: current.project_id,
      status: updated.status,
      previous_status: current.status,
      percent_complete: updated.percent_complete,
      actor_fid: principal.id,
    },
  });
  return taskDetail(trx, updated);
}

/**
 * Counts the task toward another open project with a share (CON-092); affects by default. A
 * primary link, or a link to the task's own project, is 409 primary_link (CON-095). A project
 * already linked takes the new type and share.
 */
export async function linkTask(ctx: CommandCtx, taskId: string, input: LinkInput): Promise<TaskDetail> {
  const { trx, principal, now } = ctx;
  const seen = await findTask(trx, taskId);
  if (!seen) throw taskNotFound();
  const [link] = planLinks(seen.project_id, [input]).slice(1);
  if (!link) throw primaryLinkConflict('The task already has its primary link');
  const task = await taskForWrite(ctx, taskId, [link.project_id]);
  const existing = await findLink(trx, task.id, link.project_id);
  if (existing) await deleteLink(trx, task.id, link.project_id);
  await insertLinks(trx, task.id, [link], principal.id, now);
  await ctx.emit({
    type: 'task.linked',
    data: {
      task_id: task.id,
      project_id: task.project_id,
      linked_project_id: link.project_id,
      relationship_type: link.relationship_type,
      share: link.share,
      actor_fid: principal.id,
    },
  });
  return taskDetail(trx, task);
}

/** Stops the task counting toward a project (CON-093): 404 link_not_found; the primary link stays (409, CON-094). */
export async function unlinkTask(ctx: CommandCtx, taskId: string, projectId: string): Promise<TaskDetail> {
  const { trx, principal } = ctx;
  const task = await taskForWrite(ctx, taskId);
  const link = await findLink(trx, task.id, projectId);
  if (!link) throw linkNotFound();
  if (link.relationship_type === 'primary') {
    throw primaryLinkConflict("The primary link to the task's own project cannot be removed");
  }
  await deleteLink(trx, task.id, projectId);
  await ctx.emit({
    type: 'task.unlinked',
    data: { task_id: task.id, project_id: task.project_id, linked_project_id: projectId, actor_fid: principal.id },
  });
  return taskDetail(trx, task);
}

/**
 * Makes the task wait for another task (CON-096). The graph is held for the transaction, so two
 * concurrent dependencies cannot close a cycle together; one that would is 409 dependency_cycle
 * (CON-097), a repeated one 409 dependency_exists (CON-098).
 */
export async function addDependency(ctx: CommandCtx, taskId: string, input: DependencyInput): Promise<TaskDetail> {
  const { trx, principal, now } = ctx;
  const task = await taskForWrite(ctx, taskId);
  const dependsOn = input.depends_on_task_id;
  if (!(await findTask(trx, dependsOn))) throw taskNotFound();
  await lockDependencyGraph(trx);
  if (await dependencyExists(trx, task.id, dependsOn)) throw dependencyExistsError();
  requireNoCycle(task.id, dependsOn, task.id !== dependsOn && (await waitsFor(trx, dependsOn, task.id)));
  await insertDependency(trx, task.id, dependsOn, principal.id, now);
  await ctx.emit({
    type: 'task.dependency_added',
    data: { task_id: task.id, project_id: task.project_id, depends_on_task_id: dependsOn, actor_fid: principal.id },
  });
  return taskDetail(trx, task);
}

/**
 * Requires a document before the task is done, optionally one revision of it (CON-099, CON-100):
 * 404 document_not_found; a revision that is not this document's is 404 revision_not_found.
 * Requiring it again replaces the named revision.
 */
export async function requireDocument(
  ctx: CommandCtx,
  taskId: string,
  documentId: string,
  input: TaskDocumentInput,
): Promise<TaskDetail> {
  const { trx, principal, now } = ctx;
  const task = await taskForWrite(ctx, taskId);
  if (!(await findDocument(trx, documentId))) throw documentNotFound();
  const revisionId = input.revision_id ?? null;
  if (revisionId !== null) {
    const revision = await findRevision(trx, revisionId);
    if (!revision || revision.document_id !== documentId) throw revisionNotFound();
  }
  await upsertTaskDocument(
    trx,
    { task_id: task.id, document_id: documentId, revision_id: revisionId, created_by: principal.id },
    now,
  );
  await ctx.emit({
    type: 'task.document_required',
    data: {
      task_id: task.id,
      project_id: task.project_id,
      document_id: documentId,
      revision_id: revisionId,
      actor_fid: principal.id,
    },
  });
  return taskDetail(trx, task);
}

/** Stops requiring a document (CON-101): one the task does not require is 404 document_not_found. */
export async function releaseDocument(ctx: CommandCtx, taskId: string, documentId: string): Promise<TaskDetail> {
  const { trx, principal } = ctx;
  const task = await taskForWrite(ctx, taskId);
  if (!(await findTaskDocument(trx, task.id, documentId))) throw documentNotFound();
  await deleteTaskDocument(trx, task.id, documentId);
  await ctx.emit({
    type: 'task.document_released',
    data: { task_id: task.id, project_id: task.project_id, document_id: documentId, actor_fid: principal.id },
  });
  return taskDetail(trx, task);
}

/** Adds a note to the task (CON-102). */
export async function addTaskNote(ctx: CommandCtx, taskId: string, input: NoteInput): Promise<TaskNote> {
  const { trx, principal, now } = ctx;
  const task = await taskForWrite(ctx, taskId);
  const note = await insertNote(
    trx,
    { id: uuidv7(now.getTime()), task_id: task.id, body: input.body, created_by: principal.id },
    now,
  );
  await ctx.emit({
    type: 'task.note_added',
    data: { task_id: task.id, project_id: task.project_id, note_id: note.id, actor_fid: principal.id },
  });
  return { ...note, created_at: note.created_at.toISOString() };
}
