import { runMain } from '@platform/kit';
import { consoleConfig } from './config.ts';
import { startConsole } from './start.ts';

await runMain('console', () => startConsole(consoleConfig()));
