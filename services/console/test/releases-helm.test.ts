import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HelmCli } from '../src/releases/helm.ts';
import { checkRollbackTarget, isNamespace, isReleaseName } from '../src/releases/names.ts';
import { fakeHelm, release } from './fakes/helm.ts';

describe('21 the Helm client', () => {
  it('21 OPS-020 OPS-019 arguments reach Helm as an array, never through a shell', async () => {
    const helm = fakeHelm([release('apps', 'web', 2)]);
    const cli = new HelmCli({ bin: helm.bin, timeoutMs: 20_000, env: helm.env });
    const marker = join(tmpdir(), `console-helm-shell-${process.pid}`);
    // Were a shell to read these, the marker file would appear.
    await expect(cli.history(helm.kubeconfig, 'apps', `$(touch ${marker})`)).rejects.toMatchObject({
      code: 'release_not_found',
    });
    await expect(cli.history(helm.kubeconfig, `apps; touch ${marker}`, 'web')).rejects.toMatchObject({
      status: 404,
    });
    expect(existsSync(marker)).toBe(false);
    expect(helm.calls().map((c) => c.slice(0, 4))).toEqual([
      ['history', `$(touch ${marker})`, '--namespace', 'apps'],
      ['history', 'web', '--namespace', `apps; touch ${marker}`],
    ]);
  });

  it('21 OPS-019 a Helm run that outlasts HELM_TIMEOUT_MS is killed and answered 502', async () => {
    const helm = fakeHelm([release('apps', 'web', 2)]);
    const cli = new HelmCli({ bin: helm.bin, timeoutMs: 1_500, env: { ...helm.env, FAKE_HELM_HANG: '1' } });
    await expect(cli.list(helm.kubeconfig)).rejects.toMatchObject({
      status: 502,
      code: 'release_manager_failed',
      message: 'helm list took longer than 1500 ms',
    });
  });

  it('21 OPS-019 a missing HELM_BIN is 502 release_manager_failed', async () => {
    const cli = new HelmCli({ bin: join(tmpdir(), 'no-such-helm'), timeoutMs: 5_000 });
    await expect(cli.list('/nonexistent')).rejects.toMatchObject({ status: 502, code: 'release_manager_failed' });
  });

  it("21 OPS-020 Helm's name rule: lowercase DNS-1123, at most 53; namespaces are DNS labels", () => {
    expect(['web', 'a.b-c', 'a'.repeat(53), '0x'].every(isReleaseName)).toBe(true);
    expect(['Bad_Name', 'a;id', '$(id)', '../x', 'a'.repeat(54), '', '-a', 'a-', 'a..b'].some(isReleaseName)).toBe(
      false,
    );
    expect(['apps', 'a'.repeat(63)].every(isNamespace)).toBe(true);
    expect(['Apps', 'a.b', 'a'.repeat(64), '', '-a'].some(isNamespace)).toBe(false);
    const h = release('apps', 'web', 3).history;
    expect(checkRollbackTarget(h, 2).revision).toBe(2);
    expect(() => checkRollbackTarget(h, 3)).toThrow(/deployed/);
    expect(() => checkRollbackTarget(h, 4)).toThrow(/not in the release's history/);
  });
});
