import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { launch } from './launcher.ts';
import { platformOpenApi, throwawayEnv } from './openapi.ts';

/**
 * `npm run openapi [-- out.yaml]`: starts every service in this process on a throw-away data
 * folder and free ports, and writes the merged platform document (default
 * docs/openapi/platform.yaml). Server URLs are the embedded defaults' loopback addresses.
 */
const out = process.argv[2] ?? join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi', 'platform.yaml');
const dataDir = mkdtempSync(join(tmpdir(), 'platform-openapi-'));
const platform = await launch([], { ...process.env, ...throwawayEnv(dataDir), LOG_LEVEL: 'warn' });
try {
  const doc = platformOpenApi(platform.started);
  // No anchors and aliases: a reader (a client generator, the yaml parser's alias limit) sees each schema whole.
  writeFileSync(out, stringify(doc, { aliasDuplicateObjects: false }));
  console.log(`wrote ${out}: ${Object.keys(doc.paths as object).length} paths`);
} finally {
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
}
