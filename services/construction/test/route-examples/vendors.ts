import { randomUUID } from 'node:crypto';
import type { RouteExample } from '@platform/kit/testing';
import { project } from '../fixtures/vendors.ts';
import type { Harness } from '../harness.ts';

/**
 * One valid request per vendor-work command route. The assignment and fee routes ask the vendors
 * service about the firm first: the route checks' harness needs a vendors client that knows the
 * firm, e.g. `harness({ app: { vendors: everyFirmActive } })` (test/fakes/vendors.ts).
 */
export const VENDORS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  const firm = randomUUID();
  const created = async (url: string, data: unknown) => (await h.ok<{ id: string }>('POST', url, data, 201)).id;
  // One project with the firm on it and a large fee, made once and shared by the examples.
  let ready: Promise<{ projectId: string; feeId: string }> | undefined;
  const onProject = () => {
    ready ??= (async () => {
      const projectId = await project(h);
      await created(`/v1/vendors/${firm}/assignments`, { project_id: projectId, role: 'architect' });
      const feeId = await created(`/v1/vendors/${firm}/fees`, {
        project_id: projectId,
        description: 'Design',
        agreed_minor: 1_000_000_000,
      });
      return { projectId, feeId };
    })();
    return ready;
  };
  return {
    'POST /v1/vendors/{id}/assignments': {
      url: `/v1/vendors/${firm}/assignments`,
      body: async () => ({ data: { project_id: (await onProject()).projectId, role: 'architect' } }),
    },
    'POST /v1/vendors/{id}/assignments/{assignment_id}/end': {
      url: async () => {
        const id = await created(`/v1/vendors/${firm}/assignments`, {
          project_id: (await onProject()).projectId,
          role: 'surveyor',
        });
        return `/v1/vendors/${firm}/assignments/${id}/end`;
      },
      body: { data: { ended_on: '2026-03-02' } },
    },
    'POST /v1/vendors/{id}/fees': {
      url: `/v1/vendors/${firm}/fees`,
      body: async () => ({
        data: { project_id: (await onProject()).projectId, description: 'Concept design', agreed_minor: 5_000 },
      }),
    },
    'POST /v1/vendors/{id}/fees/{fee_id}/invoices': {
      url: async () => `/v1/vendors/${firm}/fees/${(await onProject()).feeId}/invoices`,
      body: () => ({
        data: { number: `INV-${randomUUID().slice(0, 8)}`, amount_minor: 100, invoiced_on: '2026-02-27' },
      }),
    },
  };
};
