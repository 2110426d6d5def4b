import { randomUUID } from 'node:crypto';
import type { RouteExample } from '@platform/kit/testing';
import { registerDocument, startRevision } from '../fixtures/documents.ts';
import type { Harness } from '../harness.ts';

/**
 * One valid request per attachment command route. The app needs a documents client: pass
 * `memoryDocuments()` (test/fakes/documents.ts) as the harness's `app.documents`.
 */
export const ATTACHMENTS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let shared: Promise<string> | undefined;
  const revision = () => {
    shared ??= registerDocument(h).then(async (d) => (await startRevision(h, d.id)).id);
    return shared;
  };
  return {
    'POST /v1/attachments': {
      body: async () => ({
        data: {
          record_type: 'document_revision',
          record_id: await revision(),
          blob_name: `plan_${randomUUID()}.pdf`,
          filename: 'plan.pdf',
        },
      }),
    },
  };
};
