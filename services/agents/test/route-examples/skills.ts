import type { RouteExample } from '@platform/kit/testing';
import { type Harness, tag, VIEWER } from '../harness.ts';

/**
 * One valid request per skills command route (markdown: the route checks' app has no documents
 * service). A skill is OWNER's; VIEWER, not its owner, is refused 403 not_skill_owner. The
 * forbidden check is about the skill's owner, not an agent role, so it names no agent rule.
 */
export const SKILLS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  const skill = async () =>
    (await h.ok<{ id: string }>('POST', '/v1/skills', { name: `Route skill ${tag()}`, markdown: '# r' }, 201)).id;
  const rules = { unauthenticated: 'AGT-311', missingKey: 'AGT-003' };
  return {
    'POST /v1/skills': {
      body: () => ({ data: { name: `Route check ${tag()}`, markdown: '# Route check' } }),
      rules,
    },
    'PUT /v1/skills/{id}': {
      url: async () => `/v1/skills/${await skill()}`,
      body: () => ({ data: { name: `Edited ${tag()}` } }),
      denied: VIEWER,
      rules,
    },
    'POST /v1/skills/{id}/versions': {
      url: async () => `/v1/skills/${await skill()}/versions`,
      body: () => ({ data: { markdown: `# Version ${tag()}` } }),
      denied: VIEWER,
      rules,
    },
  };
};
