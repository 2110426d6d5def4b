/**
 * The flag proxy's rules as plain functions: how an operator's fields are laid over the value a
 * write read first (OPS-023), and how keys are kept out of lists (OPS-027).
 */

type Json = Record<string, unknown>;

const isPlain = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The read value with the operator's fields over it: objects merge key by key (a strategy's
 * parameters keep the ones not sent), arrays and scalars replace. Fields not sent keep their
 * read value, so the write can send the whole value (a field left out would be cleared).
 */
export function overlay<T>(read: T, sent: unknown): T {
  if (!isPlain(read) || !isPlain(sent)) return (sent === undefined ? read : sent) as T;
  const out: Json = { ...read };
  for (const [k, v] of Object.entries(sent)) {
    if (v === undefined) continue;
    out[k] = isPlain(v) && isPlain(read[k]) ? overlay(read[k], v) : v;
  }
  return out as T;
}

/** Keeps the named fields of a value (the ones the server's write schema takes), in that order. */
export function pick(value: unknown, fields: readonly string[]): Json {
  const v = isPlain(value) ? value : {};
  return Object.fromEntries(fields.filter((f) => v[f] !== undefined).map((f) => [f, v[f]]));
}

/**
 * Variants are a list keyed by name: a sent variant lays its fields over the read one of the same
 * name (a new name is added); variants not sent stay as they were.
 */
export function overlayVariants(read: readonly Json[], sent: readonly Json[]): Json[] {
  const out = read.map((v) => ({ ...v }));
  for (const s of sent) {
    const i = out.findIndex((v) => v.name === s.name);
    if (i >= 0) out[i] = overlay(out[i], s);
    else out.push({ ...s });
  }
  return out;
}

/** Field names that hold a key, a token's secret or a password: never in a list (OPS-027). */
const KEY_FIELDS = new Set(['secret', 'key', 'apikey', 'api_key', 'token', 'password', 'clientsecret']);

/** A copy of a listed value with every key-holding field removed, at any depth. */
export function dropKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => dropKeys(v)) as T;
  if (!isPlain(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (KEY_FIELDS.has(k.toLowerCase()) && (typeof v === 'string' || v === null)) continue;
    out[k] = dropKeys(v);
  }
  return out as T;
}
