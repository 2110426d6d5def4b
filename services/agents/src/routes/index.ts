import { AGENT_ROUTES } from './agents.ts';
import type { Routes } from './deps.ts';

/**
 * Every route the agents service serves, as declarations: the route checks run over them. Each
 * area's module adds its array here.
 */
export const ROUTES: Routes = [...AGENT_ROUTES];
