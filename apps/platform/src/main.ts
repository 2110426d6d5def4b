import { ConfigError, commonConfig, loadConfig, logTo, onShutdown, refuseBuildUnderSources } from '@platform/kit';
import { banner, launch } from './launcher.ts';
import { readableLogs } from './readable-logs.ts';

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
logTo(readableLogs());
try {
  refuseBuildUnderSources('platform');
  const env = { ...process.env, DEV_AUTH: process.env.DEV_AUTH || '1' };
  const { SHUTDOWN_GRACE_MS: graceMs } = loadConfig(env, { SHUTDOWN_GRACE_MS: commonConfig().SHUTDOWN_GRACE_MS });
  const platform = await launch(names, env);
  console.log(banner(platform.started, env));
  onShutdown(() => platform.close({ graceMs }), { graceMs });
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}
