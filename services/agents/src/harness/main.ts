import { HarnessConfigError, harnessConfig } from './config.ts';
import { Stopped } from './http.ts';
import { runPlatformHarness } from './platform.ts';

/**
 * The platform harness's process: what the process runner starts per workload (and a harness
 * image runs under kubernetes). Exit codes: 0 when it finished, expired or was told to stop
 * (SIGTERM, SIGINT); 1 when it could not go on (the agent gone, the token refused); 2 for a bad
 * environment.
 */

const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());
process.once('SIGINT', () => stop.abort());

const print = (line: string) => process.stdout.write(`${line}\n`);

try {
  const outcome = await runPlatformHarness(harnessConfig(), { signal: stop.signal, print });
  print(`exiting: ${outcome}`);
  process.exit(0);
} catch (error) {
  if (error instanceof Stopped || stop.signal.aborted) process.exit(0);
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof HarnessConfigError ? 2 : 1);
}
