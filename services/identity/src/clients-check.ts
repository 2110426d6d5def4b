/**
 * `npm run clients:check -w services/identity`: checks every client definition file before review
 * and in CI, so a bad file is caught before start-up refuses it. Exits 1 on any problem.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PLATFORM_AUDIENCE } from './clients/definition.ts';
import { checkAllDefinitionFiles, describeRefusal } from './clients/load.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.env.CLIENTS_DIR || resolve(here, '../../../config/clients');
const audience = process.env.PLATFORM_AUDIENCE || DEFAULT_PLATFORM_AUDIENCE;

function main(): number {
  const checks = checkAllDefinitionFiles(dir, audience);
  if (checks.length === 0) {
    console.error(`no client definition files (*.json) in ${dir}`);
    return 1;
  }
  let failed = false;
  for (const check of checks) {
    if (check.problems.length === 0) {
      console.log(`ok ${check.file} (${check.clients} clients)`);
    } else {
      failed = true;
      console.error(describeRefusal(check.file, check.problems));
    }
  }
  return failed ? 1 : 0;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error((e as Error).message);
  process.exitCode = 1;
}
