import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CATALOGUES, platformAsyncApi } from '../src/asyncapi.ts';

type Doc = {
  channels: Record<string, { address: string }>;
  components: { messages: Record<string, { 'x-personal-data': boolean; payload: { properties: { data: unknown } } }> };
};
const doc = platformAsyncApi() as Doc;

describe('15.2 the platform event document', () => {
  it('15.2 validates as AsyncAPI 3 with @asyncapi/parser, without errors or warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    // Severity 0 is an error, 1 a warning.
    expect(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.path.join('/')}: ${d.message}`)).toEqual([]);
    expect(document?.channels().length).toBe(Object.keys(doc.channels).length);
  });

  it('15.2 has one channel per bus subject of every declared event, restricted ones marked as personal data', () => {
    for (const catalogue of CATALOGUES) {
      for (const [type, spec] of Object.entries(catalogue.events)) {
        const pub = `${catalogue.service}.${type}`;
        const restricted = `restricted.${catalogue.service}.${type}`;
        expect(pub in doc.channels, pub).toBe(spec.payload !== undefined);
        expect(restricted in doc.channels, restricted).toBe(spec.personal !== undefined);
      }
    }
    const deleted = doc.components.messages['restricted.accounting.journal_entry.deleted'];
    expect(deleted['x-personal-data']).toBe(true);
    expect(JSON.stringify(deleted.payload.properties.data)).toContain('snapshot');
    expect(JSON.stringify(doc.components.messages['accounting.journal_entry.deleted'].payload)).not.toContain(
      'snapshot',
    );
    expect(doc.components.messages['identity.person.created']['x-personal-data']).toBe(false);
  });

  it('15.2 docs/asyncapi/platform.yaml is current (regenerate with npm run asyncapi)', () => {
    const published = parse(
      readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'asyncapi', 'platform.yaml'), 'utf8'),
    );
    expect(published).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
