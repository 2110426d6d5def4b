import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const VITE_BIN = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');

/** The web UI's sources (a Vite + React app) and where its build lands. */
export const WEB_ROOT = fileURLToPath(new URL('../../web', import.meta.url));
export const WEB_DIST = join(WEB_ROOT, 'dist');
/** Written last by a build: the newest source time it was built from. */
const STAMP = '.built-from';

/** What a build reads: the app's sources, its page, its Vite config. */
function newestSource(dir = WEB_ROOT): number {
  // An image that ships only web/dist (no sources) is never stale.
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    const t = entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

/** Whether web/dist is missing or older than a source file. */
export function webIsStale(): boolean {
  try {
    return Number(readFileSync(join(WEB_DIST, STAMP), 'utf8')) < newestSource();
  } catch {
    return true;
  }
}

/**
 * Builds web/dist when it is missing or older than its sources (npm start and the tests call it).
 * The build goes to a folder of its own and is swapped in at the end, so a console serving the
 * old build (or another process building at once) never sees half a build.
 */
export async function ensureWebBuilt(opts: { force?: boolean } = {}): Promise<{ built: boolean }> {
  if (!opts.force && !webIsStale()) return { built: false };
  const from = newestSource();
  // Under web/node_modules: ignored by git and the linter even if a killed build leaves it behind.
  const tmp = join(WEB_ROOT, 'node_modules', '.builds', `${process.pid}-${Date.now()}`);
  mkdirSync(dirname(tmp), { recursive: true });
  try {
    // A child process, so the build is production whatever this process's NODE_ENV (Vitest's is
    // test, which Vite and the React plugin would honour with a development build).
    await run(process.execPath, [VITE_BIN, 'build', '--outDir', tmp, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: WEB_ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      timeout: 300_000,
    });
    writeFileSync(join(tmp, STAMP), String(from));
    rmSync(WEB_DIST, { recursive: true, force: true });
    try {
      renameSync(tmp, WEB_DIST);
    } catch (err) {
      // Another process swapped its own build in first: that one serves.
      if (!existsSync(join(WEB_DIST, 'index.html'))) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { built: true };
}
