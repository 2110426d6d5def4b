/**
 * The audit log's sentences (spec 3, Agents events: one human-readable sentence per agent or skill
 * outbox event, AGT-344). Events carry ids only; the writer looks up what the names are at the
 * time it writes (an agent's name and slug, a skill's name) and falls back to the id when the
 * subject is gone (a deleted agent).
 */

/** The event types the audit log keeps: every agents event whose type starts with one of these. */
export const AUDITED_DOMAINS = ['agent', 'swarm', 'skill'] as const;
export type AuditDomain = (typeof AUDITED_DOMAINS)[number];

export const domainOf = (type: string): AuditDomain | null => {
  const d = type.split('.')[0];
  return (AUDITED_DOMAINS as readonly string[]).includes(d ?? '') ? (d as AuditDomain) : null;
};

/** What the writer knows about the event's subject beyond its payload. */
export interface AuditContext {
  /** The agent's display name ("Name" (slug)), when the agent still exists. */
  agentLabel?: string;
  /** The top agent whose owner and members read the row (the agent itself when top-level). */
  topId?: string;
  /** The skill's name, when the skill exists. */
  skillName?: string;
}

export interface AuditEntry {
  domain: AuditDomain;
  actor: string;
  entity: string;
  /** The top agent governing who reads the row; null for skill rows, which every caller reads (AGT-259). */
  agentId: string | null;
  sentence: string;
}

type Data = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const why = (d: Data) => (str(d.reason) ? ` (${d.reason})` : '');

/** Sentences by event type; `a` is the agent's label, `who` the actor. Types without one get a general sentence. */
const SENTENCES: Record<string, (who: string, a: string, d: Data, skill: string) => string> = {
  'agent.created': (who, a, d) =>
    `${who} created agent ${a}${str(d.parent_id) ? `, a child of agent ${d.parent_id}` : ''}.`,
  'agent.updated': (who, a, d) => `${who} saved agent ${a}, changing ${list(d.fields).join(', ') || 'nothing'}.`,
  'agent.deleted': (who, a) => `${who} deleted agent ${a}.`,
  'agent.started': (who, a, d) => `${who} started agent ${a}${why(d)}.`,
  'agent.stopped': (who, a, d) => `${who} stopped agent ${a}${why(d)}.`,
  'agent.expired': (_who, a, d) => `Agent ${a} expired${why(d)}.`,
  'agent.archived': (who, a) => `${who} archived agent ${a}.`,
  'agent.restarted': (who, a, d) => `${who} restarted agent ${a} under generation ${d.generation}.`,
  'agent.woken': (who, a, d) => `${who} woke agent ${a}${why(d)}.`,
  'agent.skills_changed': (who, a, d) =>
    `${who} changed the skills of agent ${a}: now ${plural(list(d.skill_ids).length, 'skill')}.`,
  'agent.tools_changed': (who, a, d) =>
    `${who} changed the tools of agent ${a}: now ${list(d.tools).join(', ') || 'none beyond the always-granted ones'}.`,
  'agent.member_added': (who, a, d) => `${who} gave ${d.principal_fid} the ${d.role} role on agent ${a}.`,
  'agent.member_role_changed': (who, a, d) => `${who} made ${d.principal_fid} ${d.role} on agent ${a}.`,
  'agent.member_removed': (who, a, d) => `${who} removed ${d.principal_fid} (${d.role}) from agent ${a}.`,
  'agent.call_secret_issued': (who, a) => `${who} issued a call secret for agent ${a}.`,
  'agent.called': (who, a) => `${who} called on-demand agent ${a}.`,
  'agent.run_recorded': (_who, a, d) => `Agent ${a} recorded a run${why(d)}: ${d.outcome}.`,
  'swarm.dismissed': (who, a, d) =>
    `${who} dismissed swarm ${d.swarm_id} of agent ${a} (${plural(list(d.member_ids).length, 'member')}).`,
  'skill.created': (who, _a, _d, s) => `${who} created skill ${s}.`,
  'skill.versioned': (who, _a, d, s) => `${who} added version ${d.number} to skill ${s}.`,
  'skill.updated': (who, _a, d, s) => `${who} edited skill ${s}, changing ${list(d.fields).join(', ') || 'nothing'}.`,
};

/** The audit row of one event, or null when the event is not an agent, swarm or skill event. */
export function auditEntry(type: string, data: Data, ctx: AuditContext = {}): AuditEntry | null {
  const domain = domainOf(type);
  if (!domain) return null;
  const actor = str(data.actor_fid) ?? 'The service';
  const agentId = str(data.agent_id);
  const skillId = str(data.skill_id);
  const entity =
    domain === 'skill' ? `skill:${skillId}` : domain === 'swarm' ? `swarm:${str(data.swarm_id)}` : `agent:${agentId}`;
  const a = ctx.agentLabel ?? agentId ?? 'unknown';
  const s = ctx.skillName ? `“${ctx.skillName}”` : (skillId ?? 'unknown');
  const write = SENTENCES[type];
  const sentence = write ? write(actor, a, data, s) : `${actor} recorded ${type} on ${entity}.`;
  return {
    domain,
    actor,
    entity,
    agentId: domain === 'skill' ? null : (ctx.topId ?? str(data.parent_id) ?? agentId ?? null),
    sentence,
  };
}
