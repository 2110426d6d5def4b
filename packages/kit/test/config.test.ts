import { describe, expect, it } from 'vitest';
import { ConfigError, commonConfig, flag, int, loadConfig, port, url } from '../src/config.ts';

describe('config', () => {
  it('reads typed values with defaults', () => {
    const c = loadConfig({ PORT_X: '5000', DEV_AUTH: '1' }, { ...commonConfig(), PORT_X: port(4000) });
    expect(c.PORT_X).toBe(5000);
    expect(c.DEV_AUTH).toBe(true);
    expect(c.HOST).toBe('127.0.0.1');
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT_X', { PORT_X: 'abc' }, { PORT_X: port(1) }],
    ['PORT_X', { PORT_X: '70000' }, { PORT_X: port(1) }],
    ['DEV_AUTH', { DEV_AUTH: 'maybe' }, { DEV_AUTH: flag(false) }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }, { DATABASE_URL: url(['postgres:']) }],
    ['N', { N: '-5' }, { N: int(1, 0) }],
  ])('fails fast naming the bad variable %s', (name, env, spec) => {
    expect(() => loadConfig(env, spec)).toThrow(ConfigError);
    expect(() => loadConfig(env, spec)).toThrow(name);
  });
});
