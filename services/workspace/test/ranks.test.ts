import { describe, expect, it } from 'vitest';
import { hasRoom, inOrder, midpoint, RANK_GAP, rankIn, renumbered } from '../src/domain/ranks.ts';

describe('rank arithmetic (pure)', () => {
  it('WS-119 the midpoint of two neighbours is their mean (ranks are doubles)', () => {
    expect(midpoint(1024, 2048)).toBe(1536);
    expect(midpoint(1024, 1027)).toBe(1025.5);
    expect(midpoint(-3, 0)).toBe(-1.5);
    expect(midpoint(-2048, -1024)).toBe(-1536);
    expect(rankIn({ after: 1024, before: 2048 })).toBe(1536);
    expect(rankIn({ after: 1024, before: 1025 })).toBe(1024.5);
  });

  it('WS-119 a placed rank lies strictly between its neighbours whenever there is room', () => {
    for (const [a, b] of [
      [0, 2],
      [5, 7],
      [-7, -5],
      [-1, 1],
      [1024, 1025 + 1],
      [2 ** 40, 2 ** 40 + 3],
    ] as const) {
      const r = rankIn({ after: a, before: b });
      expect(r).not.toBeNull();
      expect(r as number).toBeGreaterThan(a);
      expect(r as number).toBeLessThan(b);
    }
  });

  it('WS-120 neighbours with no double between them have no room, so the caller renumbers', () => {
    expect(hasRoom(10, 11)).toBe(true);
    expect(hasRoom(10, 10)).toBe(false);
    expect(hasRoom(1024, nextUp(1024))).toBe(false);
    expect(hasRoom(1024, nextUp(nextUp(1024)))).toBe(true);
    expect(rankIn({ after: 1024, before: nextUp(1024) })).toBeNull();
    expect(rankIn({ after: 10, before: 10 })).toBeNull();
  });

  it('WS-093 an open side is one gap of 1024 beyond the named neighbour; an empty project starts at 1024', () => {
    expect(RANK_GAP).toBe(1024);
    expect(rankIn({ after: 5000, before: null })).toBe(5000 + 1024);
    expect(rankIn({ after: null, before: 5000 })).toBe(5000 - 1024);
    expect(rankIn({ after: null, before: null })).toBe(1024);
  });

  it('WS-093 WS-120 a renumbering spaces the positions 1024 apart from 1024', () => {
    expect(renumbered(0)).toEqual([]);
    expect(renumbered(4)).toEqual([1024, 2048, 3072, 4096]);
    const r = renumbered(50);
    for (let i = 1; i < r.length; i++) expect((r[i] as number) - (r[i - 1] as number)).toBe(1024);
  });

  it('WS-111 WS-119 the task it goes after must not be below the one it goes before', () => {
    expect(inOrder(1, 2)).toBe(true);
    expect(inOrder(2, 2)).toBe(true);
    expect(inOrder(3, 2)).toBe(false);
  });

  it('14.12 WS-120 repeated halving of one 1024 gap takes about 50 moves before it runs out, then renumbering restores it', () => {
    let a = 1024;
    const b = 2048;
    let moves = 0;
    for (;;) {
      const r = rankIn({ after: a, before: b });
      if (r === null) break;
      a = r;
      moves++;
    }
    // 1024 = 2^10 and doubles between 1024 and 2048 are 2^-42 apart: 52 halvings.
    expect(moves).toBe(52);
    const [ra, rb] = renumbered(2) as [number, number];
    expect(rankIn({ after: ra, before: rb })).toBe(1536);
  });
});

/** The next double above x (x > 0). */
function nextUp(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}
