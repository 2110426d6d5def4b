#!/usr/bin/env node
// Runs the whole suite with vitest and ends with the plain "N passed, N failed" line CI reads.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const out = join(mkdtempSync(join(tmpdir(), 'vitest-')), 'results.json');
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
  ...process.argv.slice(2),
];
const run = spawnSync('npx', args, { stdio: 'inherit' });
let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  // The slowest files, so a suite that grows past CI's time is seen where it grows.
  const slowest = (r.testResults ?? [])
    .map((f) => ({ file: relative(process.cwd(), f.name), ms: (f.endTime ?? 0) - (f.startTime ?? 0) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 8);
  if (slowest.length > 0) {
    console.log(`slowest files: ${slowest.map((s) => `${s.file} ${(s.ms / 1000).toFixed(0)} s`).join(', ')}`);
  }
} catch {
  failed = Math.max(failed, 1);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
