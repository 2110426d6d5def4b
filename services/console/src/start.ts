import { type SharedInfrastructure, serve } from '@platform/kit';
import { buildApp } from './app.ts';
import { type ConsoleAuthOptions, consoleAuthenticator } from './auth.ts';
import { type ConsoleConfig, consoleConfig } from './config.ts';
import { loadCatalog } from './registry/catalog.ts';
import { Registry } from './registry/registry.ts';
import { loadScopes } from './registry/scopes.ts';
import { ensureWebBuilt } from './web/build.ts';

/** The scope the embedded launcher's own database and bus stand for when its variables are unset. */
export const EMBEDDED_SCOPE = { region: 'us', subscription: 'core' } as const;

/** Builds the console's registry from its inputs (the committed files, or the files the config names). */
export function registryFromConfig(config: ConsoleConfig, shared: SharedInfrastructure = {}): Registry {
  return new Registry(
    config.CONSOLE_CATALOG_FILE ? loadCatalog(config.CONSOLE_CATALOG_FILE) : loadCatalog(),
    config.CONSOLE_SCOPES_FILE ? loadScopes(config.CONSOLE_SCOPES_FILE) : loadScopes(),
    config.env,
    { ...EMBEDDED_SCOPE, pglite: shared.pglite, bus: shared.bus },
  );
}

/** Starts the console: registry, gateway verification, HTTP. It opens no database of its own. */
export async function startConsole(
  config: ConsoleConfig = consoleConfig(),
  shared: SharedInfrastructure = {},
  opts: ConsoleAuthOptions = {},
) {
  // The web UI is built from its sources when web/dist is missing or older (the API serves regardless).
  await ensureWebBuilt().catch((e: unknown) => {
    process.stderr.write(`console: the web UI was not built: ${e instanceof Error ? e.message : String(e)}\n`);
  });
  const app = await buildApp({
    config,
    authenticator: consoleAuthenticator(config, opts),
    registry: registryFromConfig(config, shared),
  });
  // Nothing beyond the app to close: its onClose hooks end the scopes' pools and bus connections.
  const runtime = { close: async () => {} } as unknown as Parameters<typeof serve>[1];
  return serve(app, runtime, { port: config.PORT_CONSOLE, host: config.HOST });
}
