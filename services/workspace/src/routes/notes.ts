import { Envelope } from '@platform/kit';
import { createNote, updateNote } from '../commands/notes.ts';
import { Command } from '../schemas/common.ts';
import { EvidenceParams, EvidenceView, NoteInput, NotePatch } from '../schemas/evidence.ts';
import { type Routes, route } from './deps.ts';

const tags = ['notes and meetings'];

export const noteRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/notes',
    action: 'use',
    tags,
    summary: 'Write a note; no project required',
    description:
      'Any signed-in person writes a note (kind note, source note). body is 1 to 100,000 characters trimmed (422 ' +
      'invalid_evidence_text); title 0 to 200. project_id files it on a project the caller edits (404 ' +
      "project_not_found, 403 as a viewer). A note's body is its transcript (GET /v1/evidence/{id}/transcript). " +
      'Readers: its author, members of its project, platform admins.',
    body: Command(NoteInput),
    response: Envelope(EvidenceView),
    status: 201,
    errors: ['project_not_found', 'project_archived', 'invalid_evidence_text', 'invalid_title'],
    run: (ctx, { body }) => createNote(ctx, body.data),
  }),

  route({
    method: 'PATCH',
    url: '/v1/notes/:evidenceId',
    action: 'use',
    tags,
    summary: 'Edit or archive your own note',
    description:
      'body and title edit it, archived true archives it (false restores it), contributes_to_knowledge changes its ' +
      'knowledge setting (publishes evidence.knowledge_changed). Only the author: anyone else who can read the note ' +
      'gets 403 not_note_author and the note is unchanged (platform admins too); a caller who cannot read it, or a ' +
      'record that is not a note, gets 404 evidence_not_found.',
    params: EvidenceParams,
    body: Command(NotePatch),
    response: Envelope(EvidenceView),
    errors: ['evidence_not_found', 'not_note_author', 'invalid_evidence_text', 'invalid_title'],
    run: (ctx, { params, body }) => updateNote(ctx, params.evidenceId, body.data),
  }),
];
