import { describe, expect, it } from 'vitest';
import { dropKeys, overlay, overlayVariants } from '../src/flags/domain.ts';

describe('21 flag proxy rules', () => {
  it('21 OPS-023 the sent fields lie over the read value; objects merge, arrays and scalars replace', () => {
    const read = {
      name: 'flexibleRollout',
      title: 'Half',
      parameters: { rollout: '50', stickiness: 'userId' },
      constraints: [1, 2],
    };
    expect(overlay(read, { parameters: { rollout: '30' }, constraints: [3] })).toEqual({
      name: 'flexibleRollout',
      title: 'Half',
      parameters: { rollout: '30', stickiness: 'userId' },
      constraints: [3],
    });
    expect(overlay(read, { title: undefined })).toEqual(read);
    expect(
      overlayVariants(
        [
          { name: 'a', weight: 500, stickiness: 'default' },
          { name: 'b', weight: 500 },
        ],
        [
          { name: 'b', payload: { type: 'string', value: 'x' } },
          { name: 'c', weight: 0 },
        ],
      ),
    ).toEqual([
      { name: 'a', weight: 500, stickiness: 'default' },
      { name: 'b', weight: 500, payload: { type: 'string', value: 'x' } },
      { name: 'c', weight: 0 },
    ]);
  });

  it('21 OPS-027 no listed value keeps a key, at any depth', () => {
    const listed = [
      { tokenName: 'ci', secret: '*:*.abc', type: 'admin' },
      {
        id: 1,
        username: 'bot',
        tokens: [{ id: 2, secret: 'user:xyz', description: 'ci' }],
        apiKey: 'k',
        password: null,
      },
    ];
    expect(dropKeys(listed)).toEqual([
      { tokenName: 'ci', type: 'admin' },
      { id: 1, username: 'bot', tokens: [{ id: 2, description: 'ci' }] },
    ]);
    expect(JSON.stringify(dropKeys(listed))).not.toMatch(/abc|xyz/);
  });
});
