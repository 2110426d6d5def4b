import { createHash, randomUUID } from 'node:crypto';
import { documentedErrorCodes, routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpCommunications } from '../src/clients/communications.ts';
import { HttpRecorder } from '../src/clients/recorder.ts';
import { ROUTES } from '../src/routes/index.ts';
import type { View } from '../src/schemas/views.ts';
import { findPresentation, insertRevision } from '../src/store/presentations.ts';
import { type FakeCommunications, startFakeCommunications } from './fakes/communications.ts';
import { ROUTE_CHECK_DOCUMENTS } from './fakes/documents.ts';
import { type RecorderPartner, startRecorderPartner } from './fakes/recorder-partner.ts';
import {
  EDITOR,
  fid,
  type Harness,
  harness,
  OUTSIDER,
  OWNER,
  REDACTION_KEY,
  SERVICE_TOKEN,
  tag,
  VIEWER,
} from './harness.ts';
import { ROUTE_EXAMPLES } from './route-examples/index.ts';

let h: Harness;
// Examples in test/route-examples/ are built before beforeAll runs: they reach the harness through this forwarder.
// biome-ignore lint/suspicious/noExplicitAny: forwarding to the harness made in beforeAll
const lazy = new Proxy({}, { get: (_t, k) => (h as any)[k] }) as Harness;
/** The documents service the output upload path talks to (issue 16), in memory for these checks. */
const documents = ROUTE_CHECK_DOCUMENTS;
/** The communications service presentation shares go through (issue 16): the local fake. */
let communications: FakeCommunications;
/** The recorder partner the recorder routes call (issue 19): the fake at HTTP. */
let recorderPartner: RecorderPartner;
beforeAll(async () => {
  communications = await startFakeCommunications({ serviceToken: SERVICE_TOKEN });
  recorderPartner = await startRecorderPartner({ secret: 'route-checks-partner-secret' });
  h = await harness({
    app: {
      documents,
      // Presentation builds ask a model for each slide's text; here one that answers at once.
      model: { write: async (req) => `Text for ${req.prompt.split('\n')[0]}` },
      communications: new HttpCommunications({ baseUrl: communications.url, serviceToken: SERVICE_TOKEN }),
      recorder: new HttpRecorder({ baseUrl: recorderPartner.url, partnerSecret: 'route-checks-partner-secret' }),
    },
  });
});
afterAll(async () => {
  await h.close_();
  await communications.close();
  await recorderPartner.close();
});

/** A fresh project with an owner, an editor and a viewer, so each request starts from its own. */
const projectUrl = async (suffix = '') => `/v1/projects/${(await h.team()).id}${suffix}`;

/** A fresh task on a fresh team project: `/v1/projects/{id}/items/{itemId}{suffix}`. */
const taskUrl = async (suffix = '', prepare?: (projectId: string, taskId: string) => Promise<void>) => {
  const p = await h.team();
  const t = await h.task(p.id);
  await prepare?.(p.id, t.id);
  return `/v1/projects/${p.id}/items/${t.id}${suffix}`;
};

/** A fresh goal on a fresh team project (lead: OWNER). */
const goalUrl = async (suffix = '') => {
  const p = await h.team();
  const g = await h.goal(p.id);
  return `/v1/projects/${p.id}/goals/${g.id}${suffix}`;
};

/** A fresh saved view (added by EDITOR, version 1) on a fresh team project. */
const viewUrl = async () => {
  const p = await h.team();
  const r = await h.call('POST', `/v1/projects/${p.id}/views`, EDITOR, {
    data: { name: `View ${tag()}`, layout: 'list' },
  });
  h.expectStatus('view', r, 201);
  return `/v1/projects/${p.id}/views/${(r.data as View).id}`;
};

const ok = async (what: string, r: Promise<{ status: number; body: unknown }>) => h.expectStatus(what, await r, 200);

/** The views of the project the last `orderUrl` made, so the body can name them all (reversed). */
let viewIds: string[] = [];
const orderUrl = async () => {
  const p = await h.team();
  const r = await h.call('GET', `/v1/projects/${p.id}/views`, OWNER);
  h.expectStatus('views', r, 200);
  viewIds = (r.data as View[]).map((v) => v.id);
  return `/v1/projects/${p.id}/views/order`;
};

/** A fresh handoff drafted by OWNER (the sender) for EDITOR on a fresh team project (issue 16). */
const handoffUrl = async () => {
  const url = await projectUrl('/handoffs');
  const r = await h.call('POST', url, OWNER, {
    data: { receiver: fid(EDITOR), title: `Handoff ${tag()}`, next_step: 'Take it over', due_on: '2025-06-20' },
  });
  h.expectStatus('handoff', r, 201);
  return `${url}/${r.data.id}`;
};

/** The task the last `unblockRequestsUrl` project made, for the request's waiting record (issue 16). */
let waitingTaskId = '';
const unblockRequestsUrl = async () => {
  const p = await h.team();
  waitingTaskId = (await h.task(p.id)).id;
  return `/v1/projects/${p.id}/unblock-requests`;
};
const unblockRequest = () => ({
  recipient: fid(VIEWER),
  needed: 'The signed letter',
  why_now: 'The payment run is on Friday',
  waiting_record: { type: 'task', id: waitingTaskId },
  answer_kind: 'document',
});
/** A fresh open request from OWNER to VIEWER. */
const unblockRequestUrl = async () => {
  const url = await unblockRequestsUrl();
  const r = await h.call('POST', url, OWNER, { data: unblockRequest() });
  h.expectStatus('unblock request', r, 201);
  return `${url}/${r.data.id}`;
};

/** A fresh case opened by EDITOR on a fresh team project (issue 16). */
const caseUrl = async (suffix = '') => {
  const url = await projectUrl('/cases');
  const r = await h.call('POST', url, EDITOR, {
    data: { title: `Case ${tag()}`, subject: `Lease ${tag()}`, proposed_correction: 'Bill the difference' },
  });
  h.expectStatus('case', r, 201);
  return `${url}/${r.data.id}${suffix}`;
};

/** A fresh unfiled conversation started by OWNER (issue 16): `/v1/conversations/{id}{suffix}`. */
const conversationUrl = async (suffix = '') => {
  const r = await h.call('POST', '/v1/conversations', OWNER, { data: { title: `Conversation ${tag()}` } });
  h.expectStatus('conversation', r, 201);
  return `/v1/conversations/${r.data.id}${suffix}`;
};

/** A fresh conversation of OWNER with one turn: `/v1/conversations/{id}/turns/1{suffix}`. */
const turnUrl = async (suffix = '') => {
  const url = await conversationUrl('/turns');
  h.expectStatus('turn', await h.call('POST', url, OWNER, { data: { text: 'Said once' } }), 201);
  return `${url}/1${suffix}`;
};

/** A fresh agent session on a fresh conversation of OWNER: `/v1/sessions/{id}{suffix}`. */
const sessionUrl = async (suffix = '') => {
  const r = await h.call('POST', await conversationUrl('/sessions'), OWNER, { data: {} });
  h.expectStatus('session', r, 201);
  return `/v1/sessions/${r.data.id}${suffix}`;
};

/** A conversation filed by OWNER on a fresh team project (issue 16): `/v1/conversations/{id}{suffix}`. */
const filedConversationUrl = async (suffix = '') => {
  const r = await h.call('POST', await projectUrl('/conversations'), OWNER, { data: { title: `Filed ${tag()}` } });
  h.expectStatus('filed conversation', r, 201);
  return `/v1/conversations/${r.data.id}${suffix}`;
};

/** The upload the last `finalizeUrl` made, with its bytes already uploaded (issue 16). */
let finalizing = { uploadId: '', sha256: '' };
const finalizeUrl = async () => {
  const url = await filedConversationUrl('/outputs');
  const up = await h.call('POST', `${url}/upload`, OWNER, { data: { slug: `file-${tag()}`, filename: 'plan.pdf' } });
  h.expectStatus('upload', up, 201);
  const bytes = `bytes ${tag()}`;
  documents.put(up.data.blob_name, bytes);
  finalizing = { uploadId: up.data.id, sha256: createHash('sha256').update(bytes).digest('hex') };
  return `${url}/finalize`;
};

/** A filed conversation of OWNER with a panel's objections raised (c-1): its feedback URL. */
const feedbackUrl = async () => {
  const url = await filedConversationUrl();
  const r = await h.call('POST', `${url}/turns`, OWNER, {
    data: { text: 'Raised', author: 'agent:checks', extra: { raised_objections: ['c-1'] } },
  });
  h.expectStatus('assistant turn', r, 201);
  return `${url}/objections/feedback`;
};

/** A fresh pending redaction request on OWNER's unfiled conversation: `/v1/redactions/{id}/approve`. */
const approveUrl = async () => {
  const r = await h.call('POST', await turnUrl('/redaction'), OWNER, { data: { reason: 'Personal data' } });
  h.expectStatus('redaction', r, 201);
  return `/v1/redactions/${r.data.id}/approve`;
};

/** A fresh decision proposed by EDITOR on a fresh team project (issue 16). */
const decisionUrl = async (suffix = '') => {
  const url = await projectUrl('/decisions');
  const r = await h.call('POST', url, EDITOR, { data: { title: `Decision ${tag()}` } });
  h.expectStatus('decision', r, 201);
  return `${url}/${r.data.id}${suffix}`;
};

/**
 * A fresh presentation created by OWNER on a fresh team project (issue 16):
 * `/v1/projects/{id}/presentations/{presentationId}{suffix}`. `failed`: built once (the in-memory
 * documents service takes no PUT, so the render fails and resume has something to retry);
 * `rendered`: a rendered revision written as the edit route's transaction writes one.
 */
const presentationUrl = async (suffix = '', setup?: 'failed' | 'rendered') => {
  const url = await projectUrl('/presentations');
  const r = await h.call('POST', url, OWNER, { data: { title: `Deck ${tag()}`, outline: [{ title: 'Pricing' }] } });
  h.expectStatus('presentation', r, 201);
  if (setup === 'failed') {
    const b = await h.call('POST', `${url}/${r.data.id}/build`, OWNER, {});
    h.expectStatus('build', b, 201);
    if (b.data.status !== 'failed') throw new Error('the set-up build should fail');
  }
  if (setup === 'rendered') {
    const p = await findPresentation(h.db, r.data.project_id, r.data.id);
    if (!p) throw new Error('no presentation');
    await insertRevision(
      h.db,
      p,
      {
        origin: 'edit',
        slides: [{ title: 'Pricing', body: 'Three percent' }],
        created_by: fid(OWNER),
        outcome: {
          status: 'rendered',
          document_id: randomUUID(),
          content_type: 'text/html; charset=utf-8',
          size_bytes: 10,
          sha256: 'a'.repeat(64),
        },
      },
      h.now(),
    );
  }
  return `${url}/${r.data.id}${suffix}`;
};

describe('15.4 workspace: the checks of every declared command route', () => {
  routeChecks('workspace', {
    app: () => h.app,
    routes: ROUTES,
    // Owners may run every project command on their projects; who is refused is each route's own.
    allowed: OWNER,
    denied: null,
    state: () => h.state(),
    examples: {
      // Each later area's examples live in its own file of test/route-examples/ (one spread line each).
      ...ROUTE_EXAMPLES(lazy),
      'POST /v1/projects': {
        body: () => ({ data: { name: `Checks ${tag()}` } }),
        otherBody: () => ({ data: { name: `Other ${tag()}` } }),
        rules: {
          unauthenticated: 'WS-592',
          missingKey: 'WS-003 PLT-010',
          replay: 'PLT-012 PLT-013',
          conflict: 'PLT-014',
        },
      },
      'PATCH /v1/projects/{id}': {
        url: () => projectUrl(),
        body: () => ({ data: { name: `Renamed ${tag()}` } }),
        denied: EDITOR,
        rules: { forbidden: 'WS-019' },
      },
      'POST /v1/projects/{id}/status': {
        url: () => projectUrl('/status'),
        body: { data: { action: 'archive' } },
        denied: EDITOR,
      },
      'POST /v1/project-templates': {
        body: () => ({ data: { name: `Template ${tag()}`, starter_tasks: [{ type: 'task', title: 'First' }] } }),
      },
      'POST /v1/projects/{id}/members': {
        url: () => projectUrl('/members'),
        body: { data: { principal_id: fid(OUTSIDER), role: 'viewer' } },
        denied: EDITOR,
      },
      'POST /v1/projects/{id}/members/{principal_id}': {
        url: () => projectUrl(`/members/${fid(VIEWER)}`),
        body: { data: { role: 'editor' } },
        denied: EDITOR,
      },
      'POST /v1/projects/{id}/join-requests': {
        url: () => projectUrl('/join-requests'),
        body: { data: { message: 'May I join?' } },
        allowed: OUTSIDER,
      },
      'POST /v1/projects/{id}/join-requests/{principal_id}/decision': {
        url: async () => {
          const p = await h.team();
          const r = await h.call('POST', `/v1/projects/${p.id}/join-requests`, OUTSIDER, { data: {} });
          h.expectStatus('join request', r, 201);
          return `/v1/projects/${p.id}/join-requests/${fid(OUTSIDER)}/decision`;
        },
        body: { data: { decision: 'approve', role: 'viewer' } },
        denied: EDITOR,
      },
      'POST /v1/projects/{id}/items': {
        url: () => projectUrl('/items'),
        body: () => ({ data: { title: `Task ${tag()}` } }),
        allowed: EDITOR,
        denied: VIEWER,
        rules: { forbidden: 'WS-013' },
      },
      'PATCH /v1/projects/{id}/items/{itemId}': {
        url: () => taskUrl(),
        body: () => ({ data: { version: 1, title: `Edited ${tag()}` } }),
        allowed: EDITOR,
        denied: VIEWER,
        rules: { forbidden: 'WS-013' },
      },
      'POST /v1/projects/{id}/items/{itemId}/move': {
        url: () => taskUrl('/move'),
        body: { data: { status_id: 'in_progress' } },
        allowed: EDITOR,
        denied: VIEWER,
      },
      'POST /v1/projects/{id}/items/{itemId}/archive': {
        url: () => taskUrl('/archive'),
        body: {},
        allowed: EDITOR,
        denied: VIEWER,
      },
      'POST /v1/projects/{id}/items/{itemId}/unarchive': {
        url: () =>
          taskUrl('/unarchive', (p, t) =>
            ok('archive', h.call('POST', `/v1/projects/${p}/items/${t}/archive`, EDITOR)),
          ),
        body: {},
        allowed: EDITOR,
        denied: VIEWER,
      },
      'POST /v1/projects/{id}/items/{itemId}/restore': {
        url: () =>
          taskUrl('/restore', (p, t) =>
            ok('edit', h.call('PATCH', `/v1/projects/${p}/items/${t}`, EDITOR, { data: { version: 1, title: 'Two' } })),
          ),
        body: { data: { version: 2, from_version: 1 } },
        allowed: EDITOR,
        denied: VIEWER,
      },
      'POST /v1/projects/{id}/items/{itemId}/resolve': {
        url: () => taskUrl('/resolve'),
        body: {},
        allowed: EDITOR,
        denied: VIEWER,
      },
      'POST /v1/projects/{id}/goals': {
        url: () => projectUrl('/goals'),
        body: () => ({ data: { title: `Goal ${tag()}` } }),
        denied: EDITOR,
        rules: { forbidden: 'WS-180' },
      },
      'PATCH /v1/projects/{id}/goals/{goalId}': {
        url: () => goalUrl(),
        body: () => ({ data: { title: `Goal ${tag()}` } }),
        denied: EDITOR,
      },
      'DELETE /v1/projects/{id}/goals/{goalId}': {
        url: () => goalUrl(),
        denied: EDITOR,
        rules: { forbidden: 'WS-021' },
      },
      'POST /v1/projects/{id}/goals/{goalId}/checkins': {
        url: () => goalUrl('/checkins'),
        body: { data: { status: 'at_risk', note: 'Slipping a little' } },
        denied: VIEWER,
        rules: { forbidden: 'WS-024', replay: 'WS-206' },
      },
      'POST /v1/projects/{id}/views': {
        url: () => projectUrl('/views'),
        body: () => ({ data: { name: `View ${tag()}`, layout: 'board' } }),
        allowed: EDITOR,
        denied: VIEWER,
        rules: { forbidden: 'WS-016', missingKey: 'WS-249' },
      },
      'PATCH /v1/projects/{id}/views/{viewId}': {
        url: () => viewUrl(),
        body: () => ({ data: { version: 1, name: `Renamed ${tag()}` } }),
        allowed: EDITOR,
        denied: VIEWER,
        rules: { forbidden: 'WS-016', missingKey: 'WS-249' },
      },
      'DELETE /v1/projects/{id}/views/{viewId}': {
        url: () => viewUrl(),
        denied: EDITOR,
        rules: { forbidden: 'WS-020', missingKey: 'WS-249' },
      },
      'PUT /v1/projects/{id}/views/order': {
        url: () => orderUrl(),
        body: () => ({ data: { view_ids: [...viewIds].reverse() } }),
        denied: EDITOR,
        rules: { forbidden: 'WS-022', missingKey: 'WS-249' },
      },
      'POST /v1/projects/{id}/handoffs': {
        url: () => projectUrl('/handoffs'),
        body: { data: { receiver: fid(EDITOR), title: 'Checks', next_step: 'Take it over', due_on: '2025-06-20' } },
        rules: { replay: '16 WS-311' },
      },
      'PATCH /v1/projects/{id}/handoffs/{handoffId}': {
        url: () => handoffUrl(),
        body: { data: { next_step: 'Take it over on Monday' } },
      },
      'POST /v1/projects/{id}/handoffs/{handoffId}': {
        url: () => handoffUrl(),
        body: { data: { action: 'offer' } },
        rules: { replay: '16 WS-315' },
      },
      'POST /v1/projects/{id}/unblock-requests': {
        url: () => unblockRequestsUrl(),
        body: () => ({ data: unblockRequest() }),
        rules: { replay: '16 WS-344' },
      },
      'POST /v1/projects/{id}/unblock-requests/{requestId}': {
        url: () => unblockRequestUrl(),
        body: { data: { action: 'withdraw' } },
      },
      'POST /v1/projects/{id}/cases': {
        url: () => projectUrl('/cases'),
        body: () => ({ data: { title: `Case ${tag()}`, subject: 'Lease 1', proposed_correction: 'Bill it' } }),
        allowed: EDITOR,
        denied: VIEWER,
        rules: { replay: '16 WS-288' },
      },
      'PATCH /v1/projects/{id}/cases/{caseId}': {
        url: () => caseUrl(),
        body: () => ({ data: { title: `Edited ${tag()}` } }),
        allowed: EDITOR,
        denied: VIEWER,
        rules: { replay: '16 WS-570' },
      },
      'POST /v1/projects/{id}/cases/{caseId}/transition': {
        url: () => caseUrl('/transition'),
        body: { data: { status: 'accepted' } },
        otherBody: { data: { status: 'dismissed', reason: 'Not a finding' } },
        allowed: EDITOR,
        denied: VIEWER,
        rules: { replay: '16 WS-294' },
      },
      'POST /v1/projects/{id}/cases/{caseId}/amounts': {
        url: () => caseUrl('/amounts'),
        body: { data: { stage: 'identified', amount: 12_500, currency: 'USD' } },
        otherBody: { data: { stage: 'identified', amount: 99, currency: 'EUR' } },
        allowed: EDITOR,
        denied: VIEWER,
        rules: { replay: '16 WS-299' },
      },
      // Decisions, data sources and visits (issue 16).
      'POST /v1/projects/{id}/decisions': {
        url: () => projectUrl('/decisions'),
        body: () => ({ data: { title: `Decision ${tag()}` } }),
        allowed: EDITOR,
        denied: VIEWER,
        rules: { replay: '16 WS-268', forbidden: '16 WS-268' },
      },
      'POST /v1/projects/{id}/decisions/{decisionId}/approve': {
        url: () => decisionUrl('/approve'),
        body: {},
        otherBody: { why: { detail: 'Agreed at the weekly' } },
        denied: EDITOR,
        rules: { replay: '16 WS-269', forbidden: '16 WS-269' },
      },
      'POST /v1/projects/{id}/data-sources': {
        url: () => projectUrl('/data-sources'),
        body: () => ({ data: { name: 'Drive', kind: 'folder', reference: `drive:${tag()}` } }),
        allowed: EDITOR,
        denied: VIEWER,
        rules: { replay: '16 WS-272', forbidden: '16 WS-272' },
      },
      'POST /v1/projects/{id}/visit': {
        url: () => projectUrl('/visit'),
        body: {},
        otherBody: { why: { detail: 'Opened from the digest' } },
        allowed: VIEWER,
        rules: { replay: '16 WS-274' },
      },
      // Conversations (issue 16): OWNER starts them unfiled, so OWNER may run each.
      'POST /v1/conversations': {
        body: () => ({ data: { title: `Checks ${tag()}`, contributes_to_knowledge: true } }),
        rules: { replay: '16 WS-347' },
      },
      'POST /v1/projects/{id}/conversations': {
        url: () => projectUrl('/conversations'),
        body: { data: { title: 'Filed on create' } },
        denied: VIEWER,
        rules: { forbidden: '16 WS-349', replay: '16 WS-351' },
      },
      'PATCH /v1/conversations/{id}': {
        url: () => conversationUrl(),
        body: { data: { title: 'Renamed' } },
        rules: { replay: '16 WS-352' },
      },
      'POST /v1/conversations/{id}/move': {
        url: () => conversationUrl('/move'),
        body: async () => ({ data: { project_id: (await h.team()).id } }),
        rules: { replay: '16 WS-363' },
      },
      'POST /v1/conversations/{id}/suggestions/{projectId}/resolve': {
        url: async () => conversationUrl(`/suggestions/${(await h.team()).id}/resolve`),
        body: { data: { decision: 'dismiss' } },
        rules: { replay: '16 WS-368' },
      },
      'POST /v1/conversations/{id}/turns': {
        url: () => conversationUrl('/turns'),
        body: { data: { text: 'Hello', turn_kind: 'utterance', extra: { model: 'm' } } },
        otherBody: { data: { text: 'Another turn' } },
        rules: { replay: '16 WS-358' },
      },
      'POST /v1/conversations/{id}/sessions': {
        url: () => conversationUrl('/sessions'),
        body: { data: { agent: 'checks' } },
        rules: { replay: '16 WS-364' },
      },
      'POST /v1/sessions/{id}/heartbeat': {
        url: () => sessionUrl('/heartbeat'),
        body: { data: {} },
        rules: { replay: '16 WS-365' },
      },
      'POST /v1/sessions/{id}/end': {
        url: () => sessionUrl('/end'),
        body: { data: {} },
        rules: { replay: '16 WS-366' },
      },
      'POST /v1/conversations/{id}/turns/{seq}/redaction': {
        url: () => turnUrl('/redaction'),
        body: { data: { reason: 'Personal data' } },
        rules: { replay: '16 WS-372' },
      },
      'POST /v1/redactions/{id}/approve': {
        url: () => approveUrl(),
        body: { data: { approval_key: REDACTION_KEY } },
        rules: { replay: '16 WS-373' },
      },
      // Saved outputs and the panels (issue 16): on filed conversations, so a viewer is refused.
      'POST /v1/conversations/{id}/outputs': {
        url: () => filedConversationUrl('/outputs'),
        body: () => ({ data: { slug: `checks-${tag()}`, body: 'Checked text', content_type: 'text/markdown' } }),
        otherBody: { data: { slug: 'other', body: 'Other text' } },
        denied: VIEWER,
        rules: { replay: '16 WS-375', forbidden: '16 WS-375' },
      },
      'POST /v1/projects/{id}/outputs': {
        url: () => projectUrl('/outputs'),
        body: () => ({ data: { slug: `checks-${tag()}`, body: 'Checked text' } }),
        otherBody: { data: { slug: 'other', body: 'Other text' } },
        denied: VIEWER,
        rules: { replay: '16 WS-271', forbidden: '16 WS-271' },
      },
      'POST /v1/conversations/{id}/outputs/upload': {
        url: () => filedConversationUrl('/outputs/upload'),
        body: () => ({ data: { slug: `upload-${tag()}`, filename: 'plan.pdf' } }),
        denied: VIEWER,
        rules: { replay: '16 WS-382' },
      },
      'POST /v1/conversations/{id}/outputs/finalize': {
        url: () => finalizeUrl(),
        body: () => ({ data: { upload_id: finalizing.uploadId, sha256: finalizing.sha256 } }),
        otherBody: () => ({ data: { upload_id: finalizing.uploadId, sha256: 'f'.repeat(64) } }),
        denied: VIEWER,
        rules: { replay: '16 WS-382' },
      },
      'POST /v1/conversations/{id}/objections': {
        url: () => conversationUrl('/objections'),
        body: { data: { plan: 'Move the launch to March' } },
        rules: { replay: '16 WS-386' },
      },
      'POST /v1/conversations/{id}/objections/feedback': {
        url: () => feedbackUrl(),
        body: { data: { claim_id: 'c-1', rating: 'useful' } },
        otherBody: { data: { claim_id: 'c-1', rating: 'wrong' } },
        denied: VIEWER,
        rules: { replay: '16 WS-394' },
      },
      'POST /v1/conversations/{id}/related/actions': {
        url: () => turnUrl('').then((u) => u.replace(/\/turns\/1$/, '/related/actions')),
        body: { data: { turn_seq: 1, item_id: 'r-1', action: 'opened' } },
        otherBody: { data: { turn_seq: 1, item_id: 'r-1', action: 'asked' } },
        rules: { replay: '16 WS-402' },
      },
      // Customer presentations (issue 16): editors write, so a viewer is refused.
      'POST /v1/projects/{id}/presentations': {
        url: () => projectUrl('/presentations'),
        body: () => ({ data: { title: `Deck ${tag()}`, outline: [{ title: 'Pricing', notes: 'Three percent' }] } }),
        otherBody: { data: { title: 'Other deck', outline: [{ title: 'Other' }] } },
        denied: VIEWER,
        rules: { replay: '16 WS-281', forbidden: '16 WS-281' },
      },
      'POST /v1/projects/{id}/presentations/{presentationId}/build': {
        url: () => presentationUrl('/build'),
        body: { data: {} },
        denied: VIEWER,
        rules: { replay: '16 WS-282', forbidden: '16 WS-282' },
      },
      'POST /v1/projects/{id}/presentations/{presentationId}/revisions': {
        url: () => presentationUrl('/revisions'),
        body: { data: { slides: [{ title: 'Pricing', body: 'Three percent' }] } },
        otherBody: { data: { slides: [{ title: 'Pricing', body: 'Four percent' }] } },
        denied: VIEWER,
        rules: { replay: '16 WS-283', forbidden: '16 WS-283' },
      },
      'POST /v1/projects/{id}/presentations/{presentationId}/resume': {
        url: () => presentationUrl('/resume', 'failed'),
        body: { data: {} },
        denied: VIEWER,
        rules: { replay: '16 WS-284', forbidden: '16 WS-284' },
      },
      'POST /v1/projects/{id}/presentations/{presentationId}/share': {
        url: () => presentationUrl('/share', 'rendered'),
        body: { data: { recipients: ['buyer@customer.example'] } },
        otherBody: { data: { recipients: ['other@customer.example'] } },
        denied: VIEWER,
        rules: { replay: '16 WS-285', forbidden: '16 WS-285' },
      },
    },
  });
});

describe('15.1 workspace: error codes per route', () => {
  it('15.1 the OpenAPI lists each route’s codes per response status', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codes = documentedErrorCodes(doc);
    expect(codes['POST /v1/projects/{id}/goals/{goalId}/checkins']?.['403']).toEqual(['forbidden', 'not_a_member']);
    expect(codes['PATCH /v1/projects/{id}/items/{itemId}']?.['409']).toEqual([
      'idempotency_key_reused',
      'item_archived',
      'project_archived',
      'stale_version',
    ]);
    expect(codes['GET /v1/projects/{id}']?.['404']).toEqual(['project_not_found']);
    expect(codes['GET /v1/projects/{id}/changes']?.['422']).toEqual(['invalid_since', 'validation_failed']);
    // goal_not_found is 404 by path and 422 where a task names the goal.
    expect(codes['POST /v1/projects/{id}/items']?.['422']).toContain('goal_not_found');
    expect(codes['DELETE /v1/projects/{id}/goals/{goalId}']?.['404']).toEqual(['goal_not_found', 'project_not_found']);
  });
});
