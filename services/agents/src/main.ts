import { runMain } from '@platform/kit';
import { agentsConfig } from './config.ts';
import { startAgents } from './start.ts';

await runMain('agents', () => startAgents(agentsConfig()));
