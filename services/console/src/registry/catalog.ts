import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REGISTRY_DIR } from './scopes.ts';

/** Where the pipeline files are: deploy/pipelines/*.yml at the repository's root. */
export const PIPELINES_DIR = join(import.meta.dirname, '..', '..', '..', '..', 'deploy', 'pipelines');
export const CATALOG_FILE = join(REGISTRY_DIR, 'catalog.json');

/** What a pipeline file deploys; a domain is derived from the entries, never declared alone. */
export const PIPELINE_KINDS = ['service', 'app', 'gateway', 'process'] as const;
export type PipelineKind = (typeof PIPELINE_KINDS)[number];

/** The tag of each kind (OPS-034..036: services service, apps app, gateways mcp). */
export const KIND_TAG: Record<PipelineKind, string> = {
  service: 'service',
  app: 'app',
  gateway: 'mcp',
  process: 'process',
};

export interface PipelineStage {
  /** dev or prod: a tag on the entry, not a path segment (OPS-008). */
  env: 'dev' | 'prod';
  region?: string;
  subscription?: string;
}

export interface PipelineFile {
  name: string;
  kind: PipelineKind;
  domain: string;
  stages: PipelineStage[];
}

export interface CatalogEntry {
  name: string;
  domain: string;
  /** The kind's tag, then the environments it is deployed to. */
  tags: string[];
}

export interface CatalogLeaf {
  region: string;
  subscription: string;
  services: CatalogEntry[];
  apps: CatalogEntry[];
  gateways: CatalogEntry[];
  processes: CatalogEntry[];
  domains: { name: string; tags: string[] }[];
}

export interface Catalog {
  /** How the file came to be, for a reader who finds it committed. */
  generated_by: string;
  subscriptions: CatalogLeaf[];
}

const KIND_LIST: Record<PipelineKind, 'services' | 'apps' | 'gateways' | 'processes'> = {
  service: 'services',
  app: 'apps',
  gateway: 'gateways',
  process: 'processes',
};

/** A stage without region or subscription lands in us/core (OPS-033). */
export const DEFAULT_REGION = 'us';
export const DEFAULT_SUBSCRIPTION = 'core';

function checkPipeline(file: string, p: PipelineFile): PipelineFile {
  const where = `deploy/pipelines/${file}`;
  if (typeof p?.name !== 'string' || !/^[a-z][a-z0-9-]*$/.test(p.name))
    throw new Error(`${where}: name must be a lowercase name`);
  if (!PIPELINE_KINDS.includes(p.kind)) throw new Error(`${where}: kind must be one of ${PIPELINE_KINDS.join(', ')}`);
  if (typeof p.domain !== 'string' || p.domain === '') throw new Error(`${where}: domain is required`);
  if (!Array.isArray(p.stages) || p.stages.length === 0) throw new Error(`${where}: stages must list at least one`);
  for (const s of p.stages) {
    if (s.env !== 'dev' && s.env !== 'prod') throw new Error(`${where}: each stage's env is dev or prod`);
    for (const part of [s.region, s.subscription])
      if (part !== undefined && !/^[a-z][a-z0-9-]*$/.test(part))
        throw new Error(`${where}: region and subscription are lowercase names`);
  }
  return p;
}

/** Every pipeline file of a folder, parsed and checked, in file-name order. */
export function readPipelines(dir = PIPELINES_DIR): PipelineFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .sort()
    .map((f) => checkPipeline(f, parse(readFileSync(join(dir, f), 'utf8')) as PipelineFile));
}

/**
 * The catalog from the pipeline files: per region/subscription leaf, its services, apps, gateways,
 * processes and domains (OPS-032), each entry tagged with its kind and the environments it runs in.
 * Sorted throughout, so the same files always give the same bytes.
 */
export function generateCatalog(pipelines: readonly PipelineFile[]): Catalog {
  const leaves = new Map<string, CatalogLeaf>();
  const leaf = (region: string, subscription: string) => {
    const key = `${region}/${subscription}`;
    let l = leaves.get(key);
    if (!l) {
      l = { region, subscription, services: [], apps: [], gateways: [], processes: [], domains: [] };
      leaves.set(key, l);
    }
    return l;
  };
  for (const p of pipelines) {
    const envsByLeaf = new Map<string, Set<string>>();
    for (const s of p.stages) {
      const key = `${s.region ?? DEFAULT_REGION}/${s.subscription ?? DEFAULT_SUBSCRIPTION}`;
      envsByLeaf.set(key, (envsByLeaf.get(key) ?? new Set()).add(s.env));
    }
    for (const [key, envs] of envsByLeaf) {
      const [region, subscription] = key.split('/') as [string, string];
      const l = leaf(region, subscription);
      const tags = [KIND_TAG[p.kind], ...[...envs].sort()];
      l[KIND_LIST[p.kind]].push({ name: p.name, domain: p.domain, tags });
      const d = l.domains.find((x) => x.name === p.domain);
      const domainTags = new Set([...(d?.tags ?? ['domain']), ...envs]);
      const sortedTags = ['domain', ...[...domainTags].filter((t) => t !== 'domain').sort()];
      if (d) d.tags = sortedTags;
      else l.domains.push({ name: p.domain, tags: sortedTags });
    }
  }
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  const subscriptions = [...leaves.values()]
    .sort((a, b) => `${a.region}/${a.subscription}`.localeCompare(`${b.region}/${b.subscription}`))
    .map((l) => ({
      ...l,
      services: l.services.sort(byName),
      apps: l.apps.sort(byName),
      gateways: l.gateways.sort(byName),
      processes: l.processes.sort(byName),
      domains: l.domains.sort(byName),
    }));
  return { generated_by: 'npm run catalog -w services/console (from deploy/pipelines/*.yml)', subscriptions };
}

/** The catalog as committed: two-space JSON and a final newline. */
export const catalogText = (c: Catalog) => `${JSON.stringify(c, null, 2)}\n`;

/** The committed catalog (or CONSOLE_CATALOG_FILE). */
export function loadCatalog(file = CATALOG_FILE): Catalog {
  return JSON.parse(readFileSync(file, 'utf8')) as Catalog;
}

/**
 * The check CI runs (OPS-066): the committed catalog against the one generated now, as data (the
 * formatter may lay the file out its own way); the differing leaves, or [] when they agree.
 */
export function catalogDifferences(committedText: string, generated: Catalog): string[] {
  let committed: Catalog;
  try {
    committed = JSON.parse(committedText) as Catalog;
  } catch {
    return ['the committed catalog is not JSON'];
  }
  const out: string[] = [];
  const keyOf = (l: CatalogLeaf) => `${l.region}/${l.subscription}`;
  const a = new Map((committed.subscriptions ?? []).map((l) => [keyOf(l), JSON.stringify(l)]));
  const b = new Map(generated.subscriptions.map((l) => [keyOf(l), JSON.stringify(l)]));
  for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) out.push(k);
  if (JSON.stringify(committed) !== JSON.stringify(generated) && out.length === 0) out.push('generated_by');
  return out;
}
