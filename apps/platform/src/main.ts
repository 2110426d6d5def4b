import { ConfigError, onShutdown } from '@platform/kit';
import { banner, launch } from './launcher.ts';

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
try {
  const env = { DEV_AUTH: '1', ...process.env };
  const started = await launch(names, env);
  console.log(banner(started, env));
  onShutdown(() => Promise.allSettled(started.map((s) => s.close())));
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
