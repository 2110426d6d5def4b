import { createHash, randomBytes } from 'node:crypto';

/**
 * Random bytes are taken from a pool refilled 4 KiB at a time: one randomBytes call per 256 ids
 * instead of one per id (ids are minted on every request).
 */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolAt = 0;

function random16(): Buffer {
  if (poolAt + 16 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolAt = 0;
  }
  const b = Buffer.from(pool.subarray(poolAt, poolAt + 16));
  poolAt += 16;
  return b;
}

/** The millisecond of the last id and its 12-bit counter (rand_a). */
let lastMs = -1;
let counter = 0;

/**
 * UUID v7: time-ordered, so ids sort by creation and index inserts stay local. Ids this process
 * mints within one millisecond are ordered too (RFC 9562, 6.2 method 1: rand_a is a counter that
 * starts at a random value below 2^11 in each new millisecond and counts up within it), so rows
 * written in one instant (a standing test clock, a burst of commands) list in the order they were
 * made when sorted by (time, id).
 */
export function uuidv7(now = Date.now()): string {
  const b = random16();
  if (now === lastMs && counter < 0xfff) counter += 1;
  else counter = (((b[6] as number) << 8) | (b[7] as number)) & 0x7ff;
  lastMs = now;
  const ms = BigInt(now);
  for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = (b[8] & 0x3f) | 0x80;
  return format(b);
}

/** UUID v5 (SHA-1, name-based): the same name always gives the same id. */
export function uuidv5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1')
    .update(Buffer.concat([ns, Buffer.from(name, 'utf8')]))
    .digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  return format(b);
}

const format = (b: Buffer) => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
