import { forbidden, type Principal } from '@platform/kit';
import {
  checkEndLive,
  type EvidenceRecord,
  endedStatus,
  evidenceNotFound,
  leftOut,
  lineCount,
  mayRead,
  mayWrite,
  meetingMarkdown,
  notAMeeting,
  transcriptLimit,
  transcriptParticipants,
} from '../domain/evidence.ts';
import type { Role } from '../domain/roles.ts';
import type { EvidenceView, Transcript } from '../schemas/evidence.ts';
import type { Db } from '../store/db.ts';
import {
  deleteEvidence,
  findEvidence,
  listParticipants,
  lockEvidence,
  transcriptLines,
  updateEvidence,
} from '../store/evidence.ts';
import { memberRole } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';

/** A record as the API shows it: device_serial is absent (not null) where there is none. */
export function evidenceView(r: EvidenceRecord): EvidenceView {
  return {
    id: r.id,
    kind: r.kind,
    source: r.source,
    external_ref: r.external_ref,
    document_id: r.document_id,
    ...(r.device_serial === null ? {} : { device_serial: r.device_serial }),
    author: r.author,
    title: r.title,
    body: r.body,
    project_id: r.project_id,
    live: r.live,
    live_slices: r.live_slices,
    transcription_status: r.transcription_status,
    line_count: lineCount(r),
    archived: r.archived_at !== null,
    archived_at: r.archived_at?.toISOString() ?? null,
    contributes_to_knowledge: r.contributes_to_knowledge,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    ended_at: r.ended_at?.toISOString() ?? null,
  };
}

export interface EvidenceAccess {
  record: EvidenceRecord;
  /** The caller's role on the record's project (null when unfiled or not a member). */
  role: Role | null;
}

const roleOn = (db: Db, r: EvidenceRecord, p: Principal) =>
  r.project_id === null ? Promise.resolve(null) : memberRole(db, r.project_id, p.id);

/**
 * The record if the caller may read it (its author, members of its project, platform admins),
 * else 404 evidence_not_found. `lock` takes the record's row lock (commands).
 */
export async function readableEvidence(
  db: Db,
  principal: Principal,
  asMember: boolean,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<EvidenceAccess> {
  const record = opts.lock ? await lockEvidence(db, id) : await findEvidence(db, id);
  if (!record) throw evidenceNotFound();
  const role = await roleOn(db, record, principal);
  if (!mayRead(principal, asMember, record, role)) throw evidenceNotFound();
  return { record, role };
}

/**
 * A meeting, thread or recording the caller may add lines, participants or speaker names to:
 * 404 when they cannot read it, 403 when they may read but not write (a project viewer), 409
 * not_a_meeting on a note.
 */
export async function writableMeeting(ctx: CommandCtx, id: string): Promise<EvidenceAccess> {
  const access = await readableEvidence(ctx.trx, ctx.principal, ctx.asMember, id, { lock: true });
  if (access.record.kind === 'note') throw notAMeeting();
  if (!mayWrite(ctx.principal, ctx.asMember, access.record, access.role)) {
    throw forbidden("Only the meeting's author, its project's editors and owners, and platform admins write to it");
  }
  return access;
}

/**
 * Deletes a meeting whose transcript has no lines (spec 2: "A transcript with no lines deletes the
 * meeting") and publishes evidence.deleted; GET /v1/evidence/{id} is 404 afterwards. Helper for
 * the recording flow too (a file transcribed to nothing).
 */
export async function deleteForNoLines(ctx: CommandCtx, r: EvidenceRecord): Promise<void> {
  await deleteEvidence(ctx.trx, r.id);
  await ctx.emit({
    type: 'evidence.deleted',
    data: {
      evidenceId: r.id,
      projectId: r.project_id,
      kind: r.kind,
      source: r.source,
      reason: 'no_lines',
      actor: ctx.principal.id,
    },
  });
}

/**
 * POST /v1/evidence/{id}/end-live (spec 2, Meeting recording): a live record ends; the lines
 * written are its transcript (transcribed), none makes it no_speech. 409 not_live when it is not
 * live; a platform admin may end any, the author only while it has no lines (403 end_live_refused).
 */
export async function endLive(ctx: CommandCtx, id: string): Promise<EvidenceView> {
  const { record } = await readableEvidence(ctx.trx, ctx.principal, ctx.asMember, id, { lock: true });
  checkEndLive(ctx.principal, ctx.asMember, record);
  const ended = await updateEvidence(
    ctx.trx,
    record.id,
    { transcription_status: endedStatus(record), ended_at: ctx.now, ended_by: ctx.principal.id },
    ctx.now,
  );
  return evidenceView(ended);
}

/**
 * GET /v1/evidence/{id}/transcript: the whole record as markdown. A note's body is its transcript
 * (max_lines counts its lines too); a meeting shows its participants, then "speaker: text" per line
 * (speaker names given by speakers/assign). max_lines stops early, 0 means the whole record up to
 * 8000 lines; truncated names the lines left out.
 */
export async function readTranscript(db: Db, r: EvidenceRecord, maxLines: number | undefined): Promise<Transcript> {
  const limit = transcriptLimit(maxLines);
  if (r.kind === 'note' || r.body !== null) {
    const all = (r.body ?? '').split('\n');
    const shown = all.slice(0, limit);
    const truncated = leftOut(shown.length, all.length);
    return {
      evidence_id: r.id,
      format: 'markdown',
      participants: [],
      lines: shown.length,
      total_lines: all.length,
      markdown: shown.join('\n'),
      ...(truncated ? { truncated } : {}),
    };
  }
  const total = lineCount(r);
  const [listed, lines] = await Promise.all([listParticipants(db, r.id), transcriptLines(db, r, limit)]);
  const participants = transcriptParticipants(
    listed,
    lines.map((l) => l.speaker),
  );
  const truncated = leftOut(lines.length, total);
  return {
    evidence_id: r.id,
    format: 'markdown',
    participants,
    lines: lines.length,
    total_lines: total,
    markdown: meetingMarkdown(participants, lines),
    ...(truncated ? { truncated } : {}),
  };
}
