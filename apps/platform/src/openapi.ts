/**
 * The merged platform OpenAPI document: every /v1 operation of the running services in one
 * document, each path carrying its service's server URL. Services whose API is not part of the
 * platform contract yet (documents: authorization is not wired, spec 1 "Versioning"; the broker,
 * spec 3 "Versioning") stay out.
 */

import { SERVICES, type Started } from './services.ts';

type Json = Record<string, unknown>;

export interface ServiceSpec {
  name: string;
  url: string;
  /** The service's own generated document (its /openapi.json). */
  doc: object;
}

/**
 * Spec 1, Versioning: "the merged platform spec excludes documents today"; spec 3: it "excludes
 * the agents-related broker today" (read as the whole broker: docs/decisions.md).
 */
export const EXCLUDED_FROM_MERGED_SPEC: readonly string[] = ['documents', 'broker'];

/**
 * Paths of an included service left out all the same. Construction's document register is served at
 * /v1/documents (spec 3), the documents service's path: the merged document has no /v1/documents
 * paths (PLT-031), and construction's own /openapi.json describes them (spec 3: its contract is its
 * generated spec). docs/decisions.md, "Construction in the merged document".
 */
export const PATHS_EXCLUDED_FROM_MERGED_SPEC: Readonly<Record<string, readonly string[]>> = {
  construction: ['/v1/documents'],
  // Spec 2 and spec 3 both give their service a GET /v1/audit: the merged document keeps the agents
  // service's (it came first) and the workspace's own /openapi.json describes its audit rows.
  workspace: ['/v1/audit'],
};
const excludedPath = (service: string, path: string) =>
  (PATHS_EXCLUDED_FROM_MERGED_SPEC[service] ?? []).some((p) => path === p || path.startsWith(`${p}/`));

const REF_PREFIX = '#/components/schemas/';

/** Component names are per service (`def-0` exists in every one), so each gets its service's prefix. */
function prefixRefs(v: unknown, prefix: string): unknown {
  if (Array.isArray(v)) return v.map((x) => prefixRefs(x, prefix));
  if (v && typeof v === 'object') {
    const out: Json = {};
    for (const [k, x] of Object.entries(v as Json)) {
      out[k] =
        k === '$ref' && typeof x === 'string' && x.startsWith(REF_PREFIX)
          ? `${REF_PREFIX}${prefix}${x.slice(REF_PREFIX.length)}`
          : prefixRefs(x, prefix);
    }
    return out;
  }
  return v;
}

const OPERATIONS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export function mergedOpenApi(services: readonly ServiceSpec[], version = '1.0.0'): Json {
  const paths: Json = {};
  const schemas: Json = {};
  const securitySchemes: Json = {};
  const tags: { name: string; description: string }[] = [];

  for (const s of services) {
    if (EXCLUDED_FROM_MERGED_SPEC.includes(s.name)) continue;
    const doc = prefixRefs(s.doc, `${s.name}.`) as {
      paths?: Record<string, Record<string, Json>>;
      components?: { schemas?: Json; securitySchemes?: Json };
      info?: { title?: string; description?: string };
      security?: unknown[];
    };
    tags.push({ name: s.name, description: doc.info?.description ?? doc.info?.title ?? s.name });
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) schemas[`${s.name}.${name}`] = schema;
    Object.assign(securitySchemes, doc.components?.securitySchemes ?? {});
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      // Discovery and ops routes (/, /healthz, /readyz) are each service's own, not the platform's.
      if (!path.startsWith('/v1/') || excludedPath(s.name, path)) continue;
      if (path in paths) throw new Error(`${s.name} and another service both serve ${path}`);
      const ops: Json = { servers: [{ url: s.url, description: s.name }] };
      for (const [method, op] of Object.entries(item)) {
        ops[method] = OPERATIONS.has(method)
          ? {
              ...op,
              // Each service accepts its own proofs: the document-wide list becomes each operation's.
              security: op.security ?? doc.security ?? [],
              tags: [s.name, ...((op.tags as string[] | undefined) ?? []).map((t) => `${s.name}: ${t}`)],
            }
          : op;
      }
      paths[path] = ops;
    }
  }

  return {
    openapi: '3.0.3',
    info: {
      title: 'Platform',
      version,
      description: `Every /v1 operation of the platform's services; each path names its service's server. Not included: ${EXCLUDED_FROM_MERGED_SPEC.join(', ')} (spec 1, Versioning), construction's document register (/v1/documents: see construction's own document) and workspace's /v1/audit (see workspace's own document).`,
    },
    tags,
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { schemas, securitySchemes },
  };
}

/** The merged document of started services, each path naming its service's default address. */
export const platformOpenApi = (started: readonly Started[]) =>
  mergedOpenApi(
    started.map((s) => ({ name: s.name, url: `http://127.0.0.1:${SERVICES[s.name]?.port}`, doc: s.openapi() })),
  );

/** Settings that start every service on a throw-away data folder and free ports. */
export const throwawayEnv = (dataDir: string): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.keys(SERVICES).map((n) => [`PORT_${n.toUpperCase()}`, '0'])),
  PLATFORM_DATA_DIR: dataDir,
  AZURITE_BLOB_PORT: '0',
});
