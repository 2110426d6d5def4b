import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { CATALOG_FILE, catalogDifferences, catalogText, generateCatalog, readPipelines } from './catalog.ts';

/**
 * `npm run catalog -w services/console` writes registry/catalog.json from deploy/pipelines/*.yml;
 * with --check it writes nothing and exits 1 when the committed file differs (OPS-066).
 */
const generated = generateCatalog(readPipelines());
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(CATALOG_FILE, 'utf8');
  } catch {}
  const diff = catalogDifferences(committed, generated);
  if (diff.length) {
    console.error(`registry/catalog.json is stale (${diff.join(', ')}): run npm run catalog -w services/console`);
    process.exit(1);
  }
  console.log('registry/catalog.json matches deploy/pipelines');
} else {
  writeFileSync(CATALOG_FILE, catalogText(generated));
  // Laid out as the repository's formatter wants it, so the lint step accepts the file as written.
  execFileSync('npx', ['biome', 'format', '--write', CATALOG_FILE], { stdio: 'ignore' });
  console.log(`wrote ${CATALOG_FILE} (${generated.subscriptions.length} subscriptions)`);
}
