import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources: the workspace packages' "source" export condition (plain node
// resolves "default", the build in dist/). Node gets it too, for what tests load natively. Vite's
// "module" condition is left out: it picks bundler-only builds (e.g. @opentelemetry/api's ESM with
// extensionless imports, which Node then cannot load when the package is externalised).
const conditions = ['source', ...defaultServerConditions.filter((c) => c !== 'module')];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    globalSetup: ['scripts/vitest-global-setup.ts'],
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
