import { defineEvents, type EventOf } from '@platform/kit';
import { AGENT_EVENTS } from './events/agents.ts';
import { MEMBER_EVENTS } from './events/members.ts';
import { SKILL_EVENTS } from './events/skills.ts';
import { WAKE_EVENTS } from './events/wakes.ts';

/**
 * The agents service's events (spec 3, Agents events; docs/decisions.md lists the ones the spec
 * does not name): the only ones its commands may emit. Each area declares its own in src/events/<area>.ts.
 */
export const events = defineEvents('agents', {
  ...AGENT_EVENTS,
  ...MEMBER_EVENTS,
  ...SKILL_EVENTS,
  ...WAKE_EVENTS,
});
export type AgentsEvent = EventOf<typeof events>;
