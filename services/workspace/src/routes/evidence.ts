import { Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { endLive, evidenceView, readableEvidence, readTranscript } from '../commands/evidence.ts';
import { AsMemberHeaders, OptionalDataCommand } from '../schemas/common.ts';
import { EvidenceParams, EvidenceView, Transcript, TranscriptQuery } from '../schemas/evidence.ts';
import { asMember, type Routes, route } from './deps.ts';

const tags = ['notes and meetings'];
const READERS = 'Readers: its author, members of its project (any role), platform admins; anyone else gets 404.';

export const evidenceRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/evidence/:evidenceId',
    action: 'use',
    tags,
    summary: 'Read a record of any kind (note, meeting, thread, recording)',
    description: READERS,
    schema: { headers: AsMemberHeaders },
    params: EvidenceParams,
    response: Envelope(EvidenceView),
    errors: ['evidence_not_found'],
    handler: async ({ params, principal, req, reply }, deps) => {
      const { record } = await readableEvidence(deps.database.db, principal, asMember(req), params.evidenceId);
      return reply.envelope(evidenceView(record));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/evidence/:evidenceId/transcript',
    action: 'use',
    tags,
    summary: 'The whole record as markdown: participants, then speaker and text per line',
    description:
      'format=markdown (the only format). max_lines stops early; 0 (the default) means the whole record up to 8000 ' +
      'lines. truncated, present only when lines were left out, names them (from_line to to_line, count). A note’s ' +
      `body is its transcript. ${READERS}`,
    schema: { headers: AsMemberHeaders },
    params: EvidenceParams,
    query: TranscriptQuery,
    response: Envelope(Transcript),
    errors: ['evidence_not_found'],
    handler: async ({ params, query, principal, req, reply }, deps) => {
      const db = deps.database.db;
      const { record } = await readableEvidence(db, principal, asMember(req), params.evidenceId);
      return reply.envelope(await readTranscript(db, record, query.max_lines));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/evidence/:evidenceId/end-live',
    action: 'use',
    tags,
    summary: 'End a live record: its lines become the transcript; none makes it no_speech',
    description:
      'A platform admin may end any live record; its author only while it has no lines (403 end_live_refused); a ' +
      'record that is not live is 409 not_live. Audio slices after this are 409 not_live. No body. ' +
      READERS,
    params: EvidenceParams,
    body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
    response: Envelope(EvidenceView),
    errors: ['evidence_not_found', 'not_live', 'end_live_refused'],
    run: (ctx, { params }) => endLive(ctx, params.evidenceId),
  }),
];
