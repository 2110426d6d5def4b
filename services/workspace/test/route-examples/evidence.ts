import { randomUUID } from 'node:crypto';
import type { RouteExample } from '@platform/kit/testing';
import { type Harness, OWNER, tag } from '../harness.ts';

/** A meeting opened by OWNER (the suite's caller); `lines` appended when given; `live` opens it live. */
async function meetingUrl(h: Harness, suffix: string, opts: { lines?: boolean; live?: boolean } = {}) {
  const r = await h.call('POST', '/v1/meetings', OWNER, {
    data: opts.live
      ? { source: 'recorder', external_ref: `recorder:SN${tag()}:${tag()}`, live: true }
      : { source: 'zoom', title: `Checks ${tag()}` },
  });
  h.expectStatus('meeting', r, 201);
  const id = (r.data as { id: string }).id;
  if (opts.lines) {
    const a = await h.call('POST', `/v1/meetings/${id}/utterances`, OWNER, {
      data: { lines: [{ speaker: 'Speaker 1', text: 'Hello' }] },
    });
    h.expectStatus('lines', a, 201);
  }
  return suffix.startsWith('/end-live') ? `/v1/evidence/${id}${suffix}` : `/v1/meetings/${id}${suffix}`;
}

/** A fresh phone reference: phone:<install_id>:<uuidv7>. */
const phoneRef = () => {
  const r = randomUUID().split('-');
  return `phone:install-${tag()}:${r[0]}-${r[1]}-7${r[2]?.slice(1)}-a${r[3]?.slice(1)}-${r[4]}`;
};

/** Route-check examples of the evidence routes (issue 19). */
export const EVIDENCE_EXAMPLES = (h: Harness): Record<string, RouteExample> => ({
  'POST /v1/notes': {
    body: () => ({ data: { body: `Note ${tag()}` } }),
    rules: { replay: '19 WS-403' },
  },
  'PATCH /v1/notes/{evidenceId}': {
    url: async () => {
      const r = await h.call('POST', '/v1/notes', OWNER, { data: { body: 'A note to edit' } });
      h.expectStatus('note', r, 201);
      return `/v1/notes/${(r.data as { id: string }).id}`;
    },
    body: () => ({ data: { body: `Edited ${tag()}` } }),
    rules: { replay: '19 WS-404' },
  },
  'POST /v1/meetings': {
    body: () => ({ data: { source: 'phone', external_ref: phoneRef(), live: true } }),
    rules: { replay: '19 WS-407' },
  },
  'POST /v1/meetings/{evidenceId}/utterances': {
    url: () => meetingUrl(h, '/utterances'),
    body: () => ({ data: { lines: [{ speaker: 'Ana', text: `Line ${tag()}` }] } }),
    rules: { replay: '19 WS-425' },
  },
  'POST /v1/meetings/{evidenceId}/participants': {
    url: () => meetingUrl(h, '/participants'),
    body: () => ({ data: { names: [`Late ${tag()}`] } }),
    rules: { replay: '19 WS-432' },
  },
  'POST /v1/meetings/{evidenceId}/speakers/assign': {
    url: () => meetingUrl(h, '/speakers/assign', { lines: true }),
    body: () => ({ data: { label: 'Speaker 1', name: `Name ${tag()}` } }),
    rules: { replay: '19 WS-433' },
  },
  'POST /v1/evidence/{evidenceId}/end-live': {
    url: () => meetingUrl(h, '/end-live', { live: true }),
    body: {},
    rules: { replay: '19 WS-435' },
  },
});
