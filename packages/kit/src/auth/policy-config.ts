import type { Policy } from '@platform/policies';
import { emailList, optionalStr, type Reader } from '../config.ts';
import type { PolicyInputs } from './principal.ts';

/**
 * Configuration readers for the variables the policies' inputs come from: each gateway
 * application's audience and each email list. A service (or identity, which answers for every
 * service) spreads them into its `loadConfig` spec.
 */
export function policyConfig(...policies: Policy[]): Record<string, Reader<string | undefined> | Reader<string[]>> {
  const spec: Record<string, Reader<string | undefined> | Reader<string[]>> = {};
  for (const p of policies) {
    for (const app of Object.values(p.apps ?? {})) spec[app.audience] = optionalStr();
    for (const variable of Object.values(p.lists ?? {})) spec[variable] = emailList();
  }
  return spec;
}

/** A policy's inputs from loaded configuration: the values of the variables `policyConfig` reads. */
export function policyInputs(policy: Policy, cfg: Readonly<Record<string, unknown>>): PolicyInputs {
  const apps: Record<string, string | undefined> = {};
  for (const [name, app] of Object.entries(policy.apps ?? {})) {
    const v = cfg[app.audience];
    apps[name] = typeof v === 'string' && v !== '' ? v : undefined;
  }
  const lists: Record<string, readonly string[]> = {};
  for (const [name, variable] of Object.entries(policy.lists ?? {})) {
    const v = cfg[variable];
    lists[name] = Array.isArray(v) ? v.map((e) => String(e).toLowerCase()) : [];
  }
  return { apps, lists };
}
