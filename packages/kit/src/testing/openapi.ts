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
