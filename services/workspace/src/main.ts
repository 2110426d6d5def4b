import { runMain } from '@platform/kit';
import { workspaceConfig } from './config.ts';
import { startWorkspace } from './start.ts';

await runMain('workspace', () => startWorkspace(workspaceConfig()));
