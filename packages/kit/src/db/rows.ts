/** Timestamps leave the store as ISO strings. */
export const iso = (v: Date | string | null | undefined): string | null =>
  v == null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

export const isoOrThrow = (v: Date | string) => iso(v) as string;

/** Drop null optional fields: the API omits what an entry does not carry. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out as T;
}
