import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The console's web UI: a client app (the page holds the gateway token it sends), built to
 * web/dist and served by the console itself at `/` (src/web/serve.ts builds it when stale).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  logLevel: 'warn',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 2000 },
});
