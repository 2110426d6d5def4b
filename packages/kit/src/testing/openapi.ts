import { Validator } from '@seriousme/openapi-schema-validator';

/** Validates a generated OpenAPI document with a real OpenAPI schema validator. */
export async function validateOpenApi(doc: unknown): Promise<{ valid: boolean; errors: unknown }> {
  const validator = new Validator();
  const res = await validator.validate(doc as never);
  return { valid: res.valid, errors: res.errors };
}

type Op = { requestBody?: unknown; parameters?: unknown[]; responses?: Record<string, { content?: unknown }> };

/**
 * Every operation documents its responses with schemas, and every write documents its request.
 * Returns the operations that fall short.
 */
export function routesMissingSchemas(doc: { paths: Record<string, Record<string, Op>> }): string[] {
  const missing: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const success = Object.entries(op.responses ?? {}).filter(([s]) => s.startsWith('2'));
      // 204 No Content is the one success that has no body to describe.
      if (success.length === 0 || success.some(([s, r]) => !r.content && s !== '204'))
        missing.push(`${method.toUpperCase()} ${path}: response`);
      if (['post', 'put', 'patch'].includes(method) && !op.requestBody)
        missing.push(`${method.toUpperCase()} ${path}: request`);
    }
  }
  return missing;
}

/**
 * The routes an app registered ("METHOD /path", Fastify's `:param` as `{param}`) that its OpenAPI
 * document does not list, among those `served` selects (default: every /v1 route). Also returns
 * how many were checked, so a test can tell an empty selection from a clean one.
 */
export function undocumentedRoutes(
  registered: readonly string[],
  doc: { paths: Record<string, object> },
  served: (url: string) => boolean = (url) => url.startsWith('/v1/'),
): { checked: number; missing: string[] } {
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
  );
  const checked = registered
    .map((r) => r.split(' ') as [string, string])
    .filter(([, url]) => served(url))
    .map(([method, url]) => `${method} ${url.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
  return { checked: checked.length, missing: checked.filter((r) => !documented.has(r)) };
}
