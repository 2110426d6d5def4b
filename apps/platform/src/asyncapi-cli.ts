import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { platformAsyncApi } from './asyncapi.ts';

/**
 * `npm run asyncapi [-- out.yaml]`: writes the merged AsyncAPI document of every service's
 * declared events (default docs/asyncapi/platform.yaml, beside the merged OpenAPI).
 */
const out = process.argv[2] ?? join(import.meta.dirname, '..', '..', '..', 'docs', 'asyncapi', 'platform.yaml');
const doc = platformAsyncApi();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, stringify(doc));
console.log(`wrote ${out}: ${Object.keys(doc.channels as object).length} channels`);
