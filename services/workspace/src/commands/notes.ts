import { forbidden, uuidv7 } from '@platform/kit';
import { evidenceNotFound, NOTE_BODY_MAX, titleOf } from '../domain/evidence.ts';
import { trimmedText } from '../domain/text.ts';
import type { EvidenceView, NoteInput, NotePatch } from '../schemas/evidence.ts';
import { type EvidencePatch, insertEvidence, updateEvidence } from '../store/evidence.ts';
import type { CommandCtx } from './context.ts';
import { evidenceView, readableEvidence } from './evidence.ts';
import { projectForWrite } from './project-access.ts';

const noteBody = (raw: string) =>
  trimmedText(raw, { max: NOTE_BODY_MAX, code: 'invalid_evidence_text', what: 'The body', field: 'body' });

/**
 * POST /v1/notes: a note by the caller, unfiled unless project_id names a project they edit. Its
 * body is its transcript (transcription_status none: nothing to transcribe).
 */
export async function createNote(ctx: CommandCtx, input: NoteInput): Promise<EvidenceView> {
  const body = noteBody(input.body);
  const title = titleOf(input.title);
  if (input.project_id !== undefined) await projectForWrite(ctx, input.project_id, 'editor');
  const note = await insertEvidence(
    ctx.trx,
    {
      id: uuidv7(ctx.now.getTime()),
      kind: 'note',
      source: 'note',
      author: ctx.principal.id,
      title,
      body,
      project_id: input.project_id ?? null,
      transcription_status: 'none',
      contributes_to_knowledge: input.contributes_to_knowledge ?? true,
    },
    ctx.now,
  );
  if (!note) throw new Error('a note has no external_ref, so its insert cannot conflict');
  return evidenceView(note);
}

/**
 * PATCH /v1/notes/{id}: the author edits the body or title, archives (archived: true) or restores
 * it, or changes its knowledge setting (evidence.knowledge_changed). Anyone else who can read the
 * note gets 403 not_note_author and the note is unchanged; those who cannot read it get 404.
 */
export async function updateNote(ctx: CommandCtx, id: string, patch: NotePatch): Promise<EvidenceView> {
  const { record } = await readableEvidence(ctx.trx, ctx.principal, ctx.asMember, id, { lock: true });
  if (record.kind !== 'note') throw evidenceNotFound();
  if (record.author !== ctx.principal.id) {
    throw forbidden("Only the note's author edits or archives it", 'not_note_author');
  }
  const set: EvidencePatch = {};
  if (patch.body !== undefined) set.body = noteBody(patch.body);
  if (patch.title !== undefined) set.title = titleOf(patch.title);
  if (patch.archived !== undefined && patch.archived !== (record.archived_at !== null)) {
    set.archived_at = patch.archived ? ctx.now : null;
  }
  const knowledge =
    patch.contributes_to_knowledge !== undefined && patch.contributes_to_knowledge !== record.contributes_to_knowledge;
  if (knowledge) set.contributes_to_knowledge = patch.contributes_to_knowledge;
  const updated = await updateEvidence(ctx.trx, record.id, set, ctx.now);
  if (knowledge) {
    await ctx.emit({
      type: 'evidence.knowledge_changed',
      data: {
        evidenceId: updated.id,
        projectId: updated.project_id,
        contributesToKnowledge: updated.contributes_to_knowledge,
        actor: ctx.principal.id,
      },
    });
  }
  return evidenceView(updated);
}
