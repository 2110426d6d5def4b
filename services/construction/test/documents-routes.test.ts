import { routeChecks } from '@platform/kit/testing';
import { afterAll, beforeAll } from 'vitest';
import { attachmentRoutes } from '../src/routes/attachments.ts';
import { documentRoutes } from '../src/routes/documents.ts';
import { memoryDocuments } from './fakes/documents.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';
import { ATTACHMENTS_EXAMPLES } from './route-examples/attachments.ts';
import { DOCUMENTS_EXAMPLES } from './route-examples/documents.ts';

/** The kit's route checks (401, 403, missing key, replay, key reuse) over document control's and attachments' commands. */
let h: Harness;
// biome-ignore lint/suspicious/noExplicitAny: forwarding to the harness made in beforeAll
const lazy = new Proxy({}, { get: (_t, k) => (h as any)[k] }) as Harness;
beforeAll(async () => {
  h = await harness({ app: { documents: memoryDocuments() } });
});
afterAll(async () => h.close_());
routeChecks('17 construction documents and attachments', {
  app: () => h.app,
  routes: [...documentRoutes, ...attachmentRoutes],
  examples: { ...DOCUMENTS_EXAMPLES(lazy), ...ATTACHMENTS_EXAMPLES(lazy) },
  allowed: EDITOR,
  denied: READER,
  state: () => h.state(),
});
