import { readFileSync } from 'node:fs';
import { round } from '@platform/kit/testing';

/**
 * Where a process's CPU time went, from a V8 .cpuprofile (`node --cpu-prof`): self time by
 * function; self and inclusive time by area (a package, a source file of ours, node's
 * internals); time by owner (the nearest package or source file of ours on the stack, so that
 * node's stream and socket work is charged to whoever asked for it); and our own functions by
 * inclusive time. Idle time is left out; shares are of the busy time.
 *
 * `tsx bench/profile.ts <file.cpuprofile> [calls]` prints it (per call when `calls` is given).
 */

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** The area of a frame: a package, one of our source files, a node internal, or V8's own work. */
export function areaOf(f: CallFrame): string {
  if (!f.url) return SPECIAL.has(f.functionName) ? f.functionName : '(native)';
  const url = f.url.replace(/^file:\/\//, '');
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
  }
  if (url.startsWith('node:')) {
    const m = /^node:(?:internal\/)?([^/]+)/.exec(url);
    return `node:${m?.[1] ?? url}`;
  }
  const ours = /\/(services\/[^/]+\/(?:src|dist)\/.*|packages\/[^/]+\/(?:src|dist)\/.*)$/.exec(url);
  return ours?.[1] ?? url;
}

/** Node's internals, V8's natives and WebAssembly: charged to their nearest caller as owner. */
const isPlumbing = (area: string) => area.startsWith('node:') || area === '(native)' || area.startsWith('wasm://');
const isOurs = (area: string) => area.startsWith('services/') || area.startsWith('packages/');

/** Function and area; no line: tsx's and the packages' bundled code make them meaningless. */
const frameName = (f: CallFrame) => `${f.functionName || '(anonymous)'} ${f.url ? areaOf(f) : ''}`.trim();

export interface ProfileSummary {
  busy_ms: number;
  idle_ms: number;
  /** µs of busy CPU per call, when the number of calls is known. */
  busy_us_per_call?: number;
  top_functions_self: { function: string; ms: number; share: number }[];
  owners: { owner: string; ms: number; share: number }[];
  our_functions_inclusive: { function: string; ms: number; share: number }[];
  areas: { area: string; self_ms: number; self_share: number; inclusive_ms: number; inclusive_share: number }[];
}

export function summarizeProfile(file: string, calls?: number, top = 20): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // A sample lasts until the next one; the last takes the mean interval.
  const self = new Map<number, number>();
  const total = p.timeDeltas.reduce((a, b) => a + b, 0);
  const mean = p.samples.length ? total / p.samples.length : 0;
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i + 1] ?? mean) / 1000);
  }

  let idle = 0;
  let busy = 0;
  const fnSelf = new Map<string, number>();
  const areaSelf = new Map<string, number>();
  const areaIncl = new Map<string, number>();
  const owner = new Map<string, number>();
  const oursIncl = new Map<string, number>();
  for (const [id, ms] of self) {
    const node = byId.get(id) as ProfileNode;
    if (node.callFrame.functionName === '(idle)') {
      idle += ms;
      continue;
    }
    busy += ms;
    const name = frameName(node.callFrame);
    fnSelf.set(name, (fnSelf.get(name) ?? 0) + ms);
    const area = areaOf(node.callFrame);
    areaSelf.set(area, (areaSelf.get(area) ?? 0) + ms);
    // Inclusive: every area (and every function of ours) on the stack of this sample, once.
    const seen = new Set<string>();
    const ours = new Set<string>();
    let own: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = (byId.get(at) as ProfileNode).callFrame;
      const a = areaOf(f);
      if (a === '(root)') continue;
      seen.add(a);
      if (own === undefined && !isPlumbing(a)) own = a;
      if (isOurs(a)) ours.add(frameName(f));
    }
    for (const a of seen) areaIncl.set(a, (areaIncl.get(a) ?? 0) + ms);
    for (const f of ours) oursIncl.set(f, (oursIncl.get(f) ?? 0) + ms);
    const o = own ?? '(node internals, no caller of ours or a package)';
    owner.set(o, (owner.get(o) ?? 0) + ms);
  }
  const share = (ms: number) => round((100 * ms) / Math.max(busy, 1e-9), 1);
  return {
    busy_ms: round(busy, 1),
    idle_ms: round(idle, 1),
    ...(calls ? { busy_us_per_call: round((busy * 1000) / calls, 1) } : {}),
    top_functions_self: [...fnSelf.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, ms]) => ({ function: fn, ms: round(ms, 1), share: share(ms) })),
    owners: [...owner.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([o, ms]) => ({ owner: o, ms: round(ms, 1), share: share(ms) })),
    our_functions_inclusive: [...oursIncl.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, ms]) => ({ function: fn, ms: round(ms, 1), share: share(ms) })),
    areas: [...areaIncl.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([area, incl]) => ({
        area,
        self_ms: round(areaSelf.get(area) ?? 0, 1),
        self_share: share(areaSelf.get(area) ?? 0),
        inclusive_ms: round(incl, 1),
        inclusive_share: share(incl),
      })),
  };
}

/** The summary as text lines. */
export function formatProfile(s: ProfileSummary): string[] {
  const out = [
    `busy ${s.busy_ms} ms, idle ${s.idle_ms} ms${s.busy_us_per_call ? `; ${s.busy_us_per_call} µs busy per call` : ''}`,
    'areas (inclusive share = time with the area anywhere on the stack; self = in its own code):',
  ];
  for (const a of s.areas) {
    out.push(`  ${String(a.inclusive_share).padStart(5)}% incl  ${String(a.self_share).padStart(5)}% self  ${a.area}`);
  }
  out.push('owners (the nearest package or file of ours on the stack):');
  for (const o of s.owners) out.push(`  ${String(o.share).padStart(5)}%  ${o.owner}`);
  out.push('our functions by inclusive time:');
  for (const f of s.our_functions_inclusive) out.push(`  ${String(f.share).padStart(5)}%  ${f.function}`);
  out.push('functions by self time:');
  for (const f of s.top_functions_self) out.push(`  ${String(f.share).padStart(5)}%  ${f.function}`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, calls] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/profile.ts <file.cpuprofile> [calls]');
    process.exit(2);
  }
  for (const line of formatProfile(summarizeProfile(file, calls ? Number(calls) : undefined, 30))) console.log(line);
}
