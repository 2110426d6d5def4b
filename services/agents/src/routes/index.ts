import { AGENT_CRUD_ROUTES } from './agent-crud.ts';
import { AGENT_ROUTES } from './agents.ts';
import { AUDIT_ROUTES } from './audit.ts';
import { BRIEF_ROUTES } from './briefs.ts';
import { CHECKPOINT_ROUTES } from './checkpoint.ts';
import { COACHING_ROUTES } from './coaching.ts';
import type { Routes } from './deps.ts';
import { LIFECYCLE_ROUTES } from './lifecycle.ts';
import { LOG_ROUTES } from './logs.ts';
import { MEMBER_ROUTES } from './members.ts';
import { MEMORY_ROUTES } from './memories.ts';
import { ON_DEMAND_ROUTES } from './on-demand.ts';
import { PROPERTY_MANAGEMENT_ROUTES } from './property-management.ts';
import { REGISTRY_ROUTES } from './registry.ts';
import { RUN_ROUTES } from './runs.ts';
import { SKILL_ROUTES } from './skills.ts';
import { SOURCE_ROUTES } from './sources.ts';
import { SWARM_ROUTES } from './swarms.ts';
import { THOUGHT_ROUTES } from './thoughts.ts';
import { TRACKER_ROUTES } from './tracker.ts';
import { TRANSCRIPT_ROUTES } from './transcripts.ts';
import { WAKE_ROUTES } from './wakes.ts';

/**
 * Every route the agents service serves, as declarations: the route checks run over them. Each
 * area's module adds its array here.
 */
export const ROUTES: Routes = [
  ...AGENT_ROUTES,
  ...AGENT_CRUD_ROUTES,
  ...MEMBER_ROUTES,
  ...LOG_ROUTES,
  ...MEMORY_ROUTES,
  ...CHECKPOINT_ROUTES,
  ...TRANSCRIPT_ROUTES,
  ...SOURCE_ROUTES,
  ...THOUGHT_ROUTES,
  ...SWARM_ROUTES,
  ...WAKE_ROUTES,
  ...RUN_ROUTES,
  ...ON_DEMAND_ROUTES,
  ...SKILL_ROUTES,
  ...REGISTRY_ROUTES,
  ...AUDIT_ROUTES,
  ...LIFECYCLE_ROUTES,
  ...BRIEF_ROUTES,
  ...COACHING_ROUTES,
  ...TRACKER_ROUTES,
  ...PROPERTY_MANAGEMENT_ROUTES,
];
