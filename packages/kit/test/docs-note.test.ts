import { describe, expect, it } from 'vitest';
import { noAuthenticator } from '../src/auth/authenticate.ts';
import type { Database } from '../src/db/database.ts';
import { createServiceApp, docsNote } from '../src/http/app.ts';

const app = (apiDocs: boolean) =>
  createServiceApp({
    service: 'documented',
    title: 'Documented',
    description: 'A service with or without its interactive docs',
    database: { ping: async () => true } as unknown as Database,
    authenticator: noAuthenticator,
    logLevel: 'silent',
    apiDocs,
    routes: () => {},
  });

describe("runMain's start-up line (a service started alone)", () => {
  it('13.6 names /api-docs only when the service answers it, else its OpenAPI document', async () => {
    for (const apiDocs of [true, false]) {
      const a = await app(apiDocs);
      await a.ready();
      const note = docsNote({ url: 'http://127.0.0.1:1', app: a });
      const named = note.replace(/^\w+ http:\/\/127\.0\.0\.1:1/, '');
      expect((await a.inject({ method: 'GET', url: named })).statusCode, note).toBe(200);
      expect(note).toBe(apiDocs ? 'docs http://127.0.0.1:1/api-docs' : 'spec http://127.0.0.1:1/openapi.json');
      await a.close();
    }
  });
});
