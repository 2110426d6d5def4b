import { describe, expect, it } from 'vitest';
import { UUID_RE, uuidv7 } from '../src/ids.ts';

describe('16 uuidv7', () => {
  it('16 ids minted in one millisecond sort in the order they were made', () => {
    const at = Date.parse('2025-06-16T15:00:00Z');
    const ids = Array.from({ length: 1_000 }, () => uuidv7(at));
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) {
      expect(id).toMatch(UUID_RE);
      // Version 7, RFC variant, the given millisecond in the first 48 bits.
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
      expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    }
  });

  it('16 ids of a later millisecond sort after, and a new millisecond starts its counter afresh', () => {
    const a = uuidv7(1_000);
    const b = uuidv7(1_001);
    const c = uuidv7(1_001);
    expect([c, a, b].sort()).toEqual([a, b, c]);
    expect(uuidv7(5)).toMatch(UUID_RE);
  });
});
