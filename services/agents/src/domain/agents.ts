import { unprocessable } from '@platform/kit';
import { DEFAULT_HARNESS, type Harness, harnessById } from './harnesses.ts';

export const LIFETIMES = ['persistent', 'ephemeral'] as const;
export const RUN_TYPES = ['always_on', 'on_demand'] as const;
export const STATUSES = ['active', 'expired', 'archive'] as const;
export const DESIRED_STATES = ['stopped', 'running', 'completed'] as const;
export type Lifetime = (typeof LIFETIMES)[number];
export type RunType = (typeof RUN_TYPES)[number];

/** Limits (spec 3): max_turns at least 10, 10 on create when omitted (AGT-038, AGT-039). */
export const MIN_TURNS = 10;
/** An ephemeral agent lives four hours from its (re)start (AGT-075). */
export const EPHEMERAL_TTL_MS = 4 * 60 * 60 * 1000;

export interface SkillGrant {
  skill_id: string;
  /** null or absent: the skill's latest version (AGT-043). */
  version_id?: string | null;
}

/**
 * The slug proposed from a name (AGT-014): lower-case letters and digits joined by single dashes,
 * at most 48 characters; `agent` when nothing is left. A taken slug gets -2, -3… (store).
 */
export function proposeSlug(name: string | null | undefined): string {
  const base = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return base || 'agent';
}

/** The mailbox: the slug at the environment's domain (AGT-023, AGT-024). */
export const mailboxOf = (slug: string, domain: string) => `${slug}@${domain}`;

/** The harness an agent names, or 422 harness_not_found. */
export function requireHarness(id: string | undefined): Harness {
  if (id === undefined) return DEFAULT_HARNESS;
  const h = harnessById(id);
  if (!h) throw unprocessable('harness_not_found', `No harness ${id}`, 'data/harness_id');
  return h;
}

/**
 * The tools an agent stores: each must be one the harness permits (AGT-108), always-granted ones
 * are dropped (AGT-045), repeats kept once, order kept.
 */
export function grantedTools(harness: Harness, tools: readonly string[]): string[] {
  const out: string[] = [];
  for (const [i, t] of tools.entries()) {
    if (!harness.tools.includes(t)) {
      throw unprocessable('tool_not_permitted', `The ${harness.id} harness does not permit ${t}`, `data/tools/${i}`);
    }
    if (!harness.always_granted.includes(t) && !out.includes(t)) out.push(t);
  }
  return out;
}

/** Skills only on a harness that allows them (AGT-109). */
export function checkSkills(harness: Harness, skills: readonly SkillGrant[]): void {
  if (skills.length > 0 && !harness.allows_skills) {
    throw unprocessable('skills_not_allowed', `The ${harness.id} harness does not allow skills`, 'data/skills');
  }
}

/** The definition fields whose change bumps generation on a save (AGT-030..AGT-035). */
export interface Definition {
  instructions: string | null;
  model: string;
  memory_model: string;
  skills: readonly SkillGrant[];
  harness_id: string;
  tools: readonly string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether a save changes what the harness runs with, so the workload must roll (generation + 1). */
export const definitionChanged = (before: Definition, after: Definition) =>
  before.instructions !== after.instructions ||
  before.model !== after.model ||
  before.memory_model !== after.memory_model ||
  before.harness_id !== after.harness_id ||
  !same(before.skills, after.skills) ||
  !same(before.tools, after.tools);

/** The model memory work (consolidation, recall) runs on: memory_model, or the agent's own model when auto (AGT-037). */
export const memoryModelOf = (a: { model: string; memory_model: string }) =>
  a.memory_model === 'auto' ? a.model : a.memory_model;
