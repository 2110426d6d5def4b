import type { RouteExample } from '@platform/kit/testing';
import { EDITOR, type Harness, OWNER, tag } from '../harness.ts';

/** An approved decision (a fact) on a fresh project with an owner, an editor and a viewer. */
async function factUrl(h: Harness, suffix = '') {
  const p = await h.team();
  const d = await h.call('POST', `/v1/projects/${p.id}/decisions`, EDITOR, { data: { title: `Fact ${tag()}` } });
  h.expectStatus('decision', d, 201);
  const url = `/v1/projects/${p.id}/decisions/${(d.data as { id: string }).id}`;
  h.expectStatus('approve', await h.call('POST', `${url}/approve`, OWNER, {}), 200);
  return `${url}${suffix}`;
}

/**
 * Route-check examples of issue 19's audit and facts routes (GET /v1/audit is a read and needs none;
 * decisions as facts: edit and archive).
 */
export const AUDIT_EXAMPLES = (h: Harness): Record<string, RouteExample> => ({
  'PATCH /v1/projects/{id}/decisions/{decisionId}': {
    url: () => factUrl(h),
    body: () => ({ data: { detail: `Detail ${tag()}` } }),
    denied: EDITOR,
    rules: { replay: '19 WS-580', forbidden: '19 WS-580' },
  },
  'POST /v1/projects/{id}/decisions/{decisionId}/archive': {
    url: () => factUrl(h, '/archive'),
    body: {},
    otherBody: { why: { detail: 'Retired at the weekly' } },
    denied: EDITOR,
    rules: { replay: '19 WS-581', forbidden: '19 WS-581' },
  },
});
