import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundErrorLog } from '../src/service.ts';

describe('background job failures', () => {
  afterEach(() => vi.restoreAllMocks());

  it('13.4 13.5 a failing outbox send or retention run is logged, the same failure at most once a minute', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    let now = 1_000_000;
    const report = backgroundErrorLog('workspace', () => now);
    report('outbox', new Error('bus publish timed out after 10000 ms'));
    now += 200;
    report('outbox', new Error('bus publish timed out after 10000 ms'));
    report('retention', new Error('connection refused'));
    now += 60_000;
    report('outbox', new Error('bus publish timed out after 10000 ms'));
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        level: 50,
        service: 'workspace',
        job: 'outbox',
        msg: expect.stringContaining('timed out'),
      }),
      expect.objectContaining({ job: 'retention', msg: 'retention failed: connection refused' }),
      expect.objectContaining({ job: 'outbox' }),
    ]);
  });
});
