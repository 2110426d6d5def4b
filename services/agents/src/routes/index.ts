import { AGENT_CRUD_ROUTES } from './agent-crud.ts';
import { AGENT_ROUTES } from './agents.ts';
import type { Routes } from './deps.ts';
import { MEMBER_ROUTES } from './members.ts';
import { LOG_ROUTES } from './logs.ts';
import { SWARM_ROUTES } from './swarms.ts';

/**
 * Every route the agents service serves, as declarations: the route checks run over them. Each
 * area's module adds its array here.
 */
export const ROUTES: Routes = [...AGENT_ROUTES, ...AGENT_CRUD_ROUTES, ...MEMBER_ROUTES, ...LOG_ROUTES, ...SWARM_ROUTES];
