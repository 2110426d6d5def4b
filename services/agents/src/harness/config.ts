/**
 * The harness's settings, from the environment its runner gives it: the process runner sets every
 * variable below; under kubernetes the Deployment or Job sets the ones the kubernetes adapter
 * knows (AGENT_GENERATION instead of GENERATION, no KIND or TTL_AT), and the harness takes the kind
 * and the wall clock from the agent's own record instead.
 */
export type HarnessKind = 'deployment' | 'job';

export interface HarnessConfig {
  agentsUrl: string;
  /** Unset (no broker beside the service): every wake's run is recorded failed, saying so. */
  brokerUrl: string | null;
  agentId: string;
  serviceToken: string;
  generation: number | null;
  /** Unset: decided from the agent's lifetime (ephemeral agents run as jobs). */
  kind: HarnessKind | null;
  /** Unset: the agent's ttl_at, when it has one. */
  ttlAt: Date | null;
  heartbeatMs: number;
  /** The pause between inbox drains that found nothing. */
  pollMs: number;
  /** The longest one call to the agents service or the broker may take. */
  requestTimeoutMs: number;
}

export class HarnessConfigError extends Error {}

const DEFAULT_HEARTBEAT_MS = 30_000;
const DEFAULT_POLL_MS = 5_000;
const REQUEST_TIMEOUT_MS = 60_000;

function required(env: Record<string, string | undefined>, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new HarnessConfigError(`${name} is required`);
  return value;
}

function httpUrl(env: Record<string, string | undefined>, name: string): string {
  const value = required(env, name);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HarnessConfigError(`${name} is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HarnessConfigError(`${name} must be http(s)`);
  return value.replace(/\/+$/, '');
}

/** An operator's tunable (README, Configuration): the process runner passes it through from its own environment. */
function ms(raw: string | undefined, name: string, fallback: number): number {
  if (!raw?.trim()) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 10) throw new HarnessConfigError(`${name} must be a whole number >= 10`);
  return value;
}

const optional = (env: Record<string, string | undefined>, name: string) => env[name]?.trim() || undefined;

export function harnessConfig(env: Record<string, string | undefined> = process.env): HarnessConfig {
  const kind = optional(env, 'KIND') ?? null;
  if (kind !== null && kind !== 'deployment' && kind !== 'job') {
    throw new HarnessConfigError('KIND must be deployment or job');
  }
  const ttlRaw = optional(env, 'TTL_AT');
  const ttlAt = ttlRaw ? new Date(ttlRaw) : null;
  if (ttlAt && Number.isNaN(ttlAt.getTime())) throw new HarnessConfigError(`TTL_AT is not a date: ${ttlRaw}`);
  const generationRaw = optional(env, 'GENERATION') ?? optional(env, 'AGENT_GENERATION');
  const generation = generationRaw ? Number(generationRaw) : null;
  if (generation !== null && !Number.isInteger(generation)) throw new HarnessConfigError('GENERATION is not a number');
  return {
    agentsUrl: httpUrl(env, 'AGENTS_URL'),
    brokerUrl: optional(env, 'BROKER_URL') ? httpUrl(env, 'BROKER_URL') : null,
    agentId: required(env, 'AGENT_ID'),
    serviceToken: required(env, 'SERVICE_TOKEN'),
    generation,
    kind,
    ttlAt,
    heartbeatMs: ms(env.HEARTBEAT_MS, 'HEARTBEAT_MS', DEFAULT_HEARTBEAT_MS),
    pollMs: ms(env.INBOX_POLL_MS, 'INBOX_POLL_MS', DEFAULT_POLL_MS),
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  };
}
