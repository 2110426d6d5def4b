import { ensureWebBuilt } from '../services/console/src/web/build.ts';

/**
 * Before any test file: the console's web UI is built once when stale (a fresh checkout has no
 * web/dist). Every console start checks the same stamp, so the tests that start the console (the
 * platform's included) find it built instead of each racing to build it inside their start-up bound.
 */
export default async function setup() {
  await ensureWebBuilt();
}
