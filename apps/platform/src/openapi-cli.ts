import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { launch } from './launcher.ts';
import { mergedOpenApi } from './openapi.ts';
import { SERVICES } from './services.ts';

/**
 * `npm run openapi [-- out.yaml]`: starts every service in this process on a throw-away data
 * folder and free ports, and writes the merged platform document (default
 * docs/openapi/platform.yaml). Server URLs are the embedded defaults' loopback addresses.
 */
const out = process.argv[2] ?? join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi', 'platform.yaml');
const dataDir = mkdtempSync(join(tmpdir(), 'platform-openapi-'));
const ports = Object.fromEntries(Object.keys(SERVICES).map((n) => [`PORT_${n.toUpperCase()}`, '0']));
const platform = await launch([], {
  ...process.env,
  ...ports,
  PLATFORM_DATA_DIR: dataDir,
  AZURITE_BLOB_PORT: '0',
  LOG_LEVEL: 'warn',
});
try {
  const doc = mergedOpenApi(
    platform.started.map((s) => ({
      name: s.name,
      url: `http://127.0.0.1:${SERVICES[s.name]?.port}`,
      doc: s.openapi(),
    })),
  );
  writeFileSync(out, stringify(doc));
  console.log(`wrote ${out}: ${Object.keys(doc.paths as object).length} paths`);
} finally {
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
}
