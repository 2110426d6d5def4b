import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources: the workspace packages' "source" export condition (plain node
// resolves "default", the build in dist/). Node gets it too, for what tests load natively.
const conditions = ['source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    pool: 'forks',
    execArgv: ['--conditions=source'],
    // And the processes tests spawn (node, tsx).
    env: { NODE_OPTIONS: [process.env.NODE_OPTIONS, '--conditions=source'].filter(Boolean).join(' ') },
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One PGlite per test file: its first start is seconds, not milliseconds.
    fileParallelism: true,
  },
});
