import type { RouteExample } from '@platform/kit/testing';
import { approve, project, registerDocument, startRevision } from '../fixtures/documents.ts';
import { type Harness, tag } from '../harness.ts';

/** One valid request per document-control command route (each call gets a fresh record where a step moves it). */
export const DOCUMENTS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let shared: Promise<string> | undefined;
  const document = () => {
    shared ??= registerDocument(h).then((d) => d.id);
    return shared;
  };
  return {
    'POST /v1/documents': {
      body: () => ({ data: { code: `RC-${tag()}`, title: 'Route check', doc_type: 'drawing', discipline: 'civil' } }),
    },
    'PUT /v1/documents/{id}': {
      url: async () => `/v1/documents/${await document()}`,
      body: { data: { title: 'Route check, renamed' } },
      otherBody: { data: { title: 'Route check, renamed again' } },
    },
    'POST /v1/documents/{id}/revisions': {
      url: async () => `/v1/documents/${await document()}/revisions`,
      body: { data: {} },
      otherBody: { data: { straight_to_review: true } },
    },
    'POST /v1/document-revisions/{id}/actions': {
      url: async () => `/v1/document-revisions/${(await startRevision(h, (await registerDocument(h)).id)).id}/actions`,
      body: { data: { action: 'prepared' } },
      otherBody: { data: { action: 'prepared', note: 'another' } },
    },
    'POST /v1/document-revisions/{id}/publish': {
      url: async () => {
        const r = await startRevision(h, (await registerDocument(h)).id);
        await approve(h, r.id);
        return `/v1/document-revisions/${r.id}/publish`;
      },
      body: { data: {} },
      otherBody: { data: { impact: { summary: 'another' } } },
    },
    'POST /v1/documents/{id}/links': {
      url: async () => `/v1/documents/${(await registerDocument(h)).id}/links`,
      body: async () => ({ data: { target_type: 'project', target_id: await project(h) } }),
    },
    'DELETE /v1/documents/{id}/links/{linkId}': {
      url: async () => {
        const d = await registerDocument(h, { project_id: await project(h) });
        return `/v1/documents/${d.id}/links/${d.links[0].id}`;
      },
    },
  };
};
