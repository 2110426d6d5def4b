import { type AgentRecord, AgentsApi, BrokerApi, type ChatMessage, type InboxItem, type RunRecord } from './clients.ts';
import type { HarnessConfig, HarnessKind } from './config.ts';
import { type CallContext, CallError, pause, Stopped } from './http.ts';

/**
 * The platform harness (the first of the registry): posts `started`, heartbeats, drains the inbox
 * and answers each wake with one model call through the broker, billed to the agent's mailbox,
 * then records the run. A deployment (always-on agent) keeps draining until it is stopped; a job
 * (ephemeral agent) works through what is waiting, or once through its instructions when nothing
 * is, and expires itself: `finished` when done, `wall_clock` when its ttl comes first.
 */

export type Outcome = 'stopped' | 'finished' | 'wall_clock';

export interface HarnessDeps {
  /** Aborted on SIGTERM: every call and pause ends at once. */
  signal: AbortSignal;
  /** The harness's own output lines (its stdout, which the process runner forwards to the service's log). */
  print?: (line: string) => void;
  fetch?: typeof fetch;
}

/** Statuses that say the harness can do nothing more here: the agent is gone or the token is refused. */
const FATAL = new Set([401, 403, 404]);
const SUMMARY_CHARS = 500;
/** setTimeout's longest delay; a later ttl is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 300);

function wakeLine(item: Pick<InboxItem, 'reason' | 'ref'>) {
  return item.ref ? `${item.reason} (${item.ref})` : item.reason;
}

/** The one model call's conversation: the agent's instructions, then what woke it. */
export function messagesFor(agent: AgentRecord, item: InboxItem | null): ChatMessage[] {
  const system = agent.instructions?.trim() || `You are ${agent.name}, an agent of the platform.`;
  const user = item
    ? `You were woken (reason: ${wakeLine(item)}). Say in a few sentences what you will do next.`
    : 'Carry out your instructions and reply with the result.';
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** Calls `fire` at `when` (at once when it has passed); the returned function cancels it. */
function at(when: Date, fire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const wait = when.getTime() - Date.now();
    if (wait <= 0) return fire();
    timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
  };
  arm();
  return () => clearTimeout(timer);
}

export async function runPlatformHarness(cfg: HarnessConfig, deps: HarnessDeps): Promise<Outcome> {
  const print = deps.print ?? (() => {});
  const ctx: CallContext = { signal: deps.signal, timeoutMs: cfg.requestTimeoutMs, fetch: deps.fetch };
  const agents = new AgentsApi(cfg, ctx);
  const agent = await agents.agent();
  const kind: HarnessKind = cfg.kind ?? (agent.lifetime === 'ephemeral' ? 'job' : 'deployment');
  const ttlAt = cfg.ttlAt ?? (agent.ttl_at ? new Date(agent.ttl_at) : null);
  await agents.log('started', `platform harness started: generation ${cfg.generation ?? agent.generation}, ${kind}`);
  print(`started ${agent.slug} (${kind})`);

  // Heartbeats never overlap and never stop the harness: a missed one is only a late last_heartbeat_at.
  let beating = false;
  const heartbeat = setInterval(() => {
    if (beating) return;
    beating = true;
    agents
      .log('heartbeat', 'alive')
      .catch((e) => {
        if (!(e instanceof Stopped)) print(`heartbeat failed: ${errorText(e)}`);
      })
      .finally(() => {
        beating = false;
      });
  }, cfg.heartbeatMs);
  try {
    if (kind === 'job') return await runJob(cfg, deps, agents, ttlAt, print);
    await runDeployment(cfg, ctx, agents, print);
    return 'stopped';
  } finally {
    clearInterval(heartbeat);
  }
}

/** Answers one wake (or, for a job with none, its instructions) with one model call, and records the run. */
async function answer(cfg: HarnessConfig, ctx: CallContext, item: InboxItem | null, print: (l: string) => void) {
  const agents = new AgentsApi(cfg, ctx);
  const broker = new BrokerApi(cfg, ctx);
  const agent = await agents.agent();
  if (item) await agents.log('wake', `woken: ${wakeLine(item)}`);
  const startedAt = new Date();
  // A job's run of its own instructions has no wake; it counts as a manual one (its start).
  const which: Pick<RunRecord, 'inbox_item_id' | 'reason'> = item ? { inbox_item_id: item.id } : { reason: 'manual' };
  let model = agent.model;
  let run: Omit<RunRecord, 'started_at' | 'finished_at'>;
  try {
    if (model === 'auto') model = await broker.autoModel();
    const reply = await broker.chat(model, messagesFor(agent, item), agent.email);
    run = { ...which, outcome: 'completed', turns: 1, model: reply.model, summary: reply.text.slice(0, SUMMARY_CHARS) };
  } catch (e) {
    if (e instanceof Stopped) throw e;
    const failed = e instanceof CallError && e.status !== undefined;
    run = { ...which, outcome: 'failed', turns: failed ? 1 : 0, summary: errorText(e) };
    if (model !== 'auto') run.model = model;
    await agents.log('error', `model call failed: ${errorText(e)}`);
  }
  try {
    await agents.recordRun({ ...run, started_at: startedAt.toISOString(), finished_at: new Date().toISOString() });
  } catch (e) {
    // Recorded already (a retry whose first answer was lost, under another key): nothing is missing.
    if (!(e instanceof CallError && e.code === 'run_already_recorded')) throw e;
  }
  print(`run ${run.outcome}: ${item ? wakeLine(item) : 'instructions'}`);
}

async function runDeployment(cfg: HarnessConfig, ctx: CallContext, agents: AgentsApi, print: (l: string) => void) {
  while (!ctx.signal.aborted) {
    let items: InboxItem[] = [];
    try {
      items = await agents.inbox();
      for (const item of items) await answer(cfg, ctx, item, print);
    } catch (e) {
      if (e instanceof Stopped) return;
      if (e instanceof CallError && e.status !== undefined && FATAL.has(e.status)) throw e;
      // The service or broker stayed away through every retry: try again on the next drain.
      print(`drain failed: ${errorText(e)}`);
    }
    if (items.length === 0) {
      try {
        await pause(cfg.pollMs, ctx.signal);
      } catch {
        return;
      }
    }
  }
}

async function runJob(
  cfg: HarnessConfig,
  deps: HarnessDeps,
  agents: AgentsApi,
  ttlAt: Date | null,
  print: (l: string) => void,
): Promise<Outcome> {
  const wallClock = new AbortController();
  const cancel = ttlAt ? at(ttlAt, () => wallClock.abort()) : () => {};
  const work: CallContext = {
    signal: AbortSignal.any([deps.signal, wallClock.signal]),
    timeoutMs: cfg.requestTimeoutMs,
    fetch: deps.fetch,
  };
  try {
    const workAgents = new AgentsApi(cfg, work);
    let answered = 0;
    for (;;) {
      const items = await workAgents.inbox();
      if (items.length === 0) break;
      for (const item of items) {
        await answer(cfg, work, item, print);
        answered++;
      }
    }
    if (answered === 0) await answer(cfg, work, null, print);
  } catch (e) {
    if (!(e instanceof Stopped) || deps.signal.aborted) throw e;
    // Only the wall clock ran out: the harness is still here to say so.
    cancel();
    await agents.expire('wall_clock');
    print('expired: wall clock');
    return 'wall_clock';
  }
  cancel();
  if (wallClock.signal.aborted) {
    await agents.expire('wall_clock');
    return 'wall_clock';
  }
  await agents.expire('finished');
  print('expired: finished');
  return 'finished';
}
