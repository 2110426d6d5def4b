import type { Policy } from '@platform/policies';
import { describe, expect, it } from 'vitest';
import { policyConfig, policyInputs } from '../src/auth/policy-config.ts';
import { createCan, type Principal } from '../src/auth/principal.ts';
import { emailList, loadConfig } from '../src/config.ts';

const policy = {
  service: 'sample',
  superAdmin: 'all',
  apps: { inside: { audience: 'SAMPLE_AUD', elsewhere: 'An inside token is not for this route' } },
  lists: { editors: 'SAMPLE_EDITORS' },
  actions: {
    open: { anyone: true },
    staff: { anyPerson: true },
    admin: { roles: ['platform_admin'] },
    admin_global: { roles: ['platform_admin'], scope: 'global' },
    admin_write: { roles: ['platform_admin'], notViaServiceToken: true },
    machine: { services: ['service:payments'] },
    edit: { listed: 'editors', apps: ['inside'], notViaServiceToken: true, refusal: 'Editors only' },
    nobody: {},
  },
} as const satisfies Policy;

const person = (grants: Principal['grants'] = [], extra: Partial<Principal> = {}): Principal => ({
  id: '0e9b2c1a-0000-4000-8000-000000000001',
  kind: 'person',
  email: 'Ed@Example.com',
  grants,
  ...extra,
});
const ADMIN = { role: 'platform_admin', scope_type: 'global', scope_id: '*' } as const;
const SUPER = { role: 'super_admin', scope_type: 'global', scope_id: '*', verified: true } as const;
const can = createCan(policy, { apps: { inside: 'inside-app' }, lists: { editors: ['ed@example.com'] } });

describe('13.1 the kit interprets policy data', () => {
  it('13.1 an open action passes without a principal; anything else is 401 without one', () => {
    expect(can.decide(null, 'open')).toEqual({ allowed: true });
    expect(can.decide(null, 'staff')).toEqual({ allowed: false, refusal: 'unauthenticated' });
  });

  it('13.1 roles, services and any person, as the rule names them; an unknown action is refused', () => {
    expect(can(person(), 'staff')).toBe(true);
    expect(can(person(), 'admin')).toBe(false);
    expect(can(person([ADMIN]), 'admin')).toBe(true);
    expect(can({ id: 'service:payments', kind: 'service', grants: [] }, 'machine')).toBe(true);
    expect(can({ id: 'service:billing', kind: 'service', grants: [] }, 'machine')).toBe(false);
    expect(can(person(), 'missing' as 'open')).toBe(false);
  });

  it("13.1 scope: a building grant counts in its building, unless the rule says 'global'", () => {
    const p = person([{ role: 'platform_admin', scope_type: 'building', scope_id: 'b1' }]);
    expect(can(p, 'admin')).toBe(false);
    expect(can(p, 'admin', { type: 'building', id: 'b1' })).toBe(true);
    expect(can(p, 'admin', { type: 'building', id: 'b2' })).toBe(false);
    expect(can(p, 'admin_global', { type: 'building', id: 'b1' })).toBe(false);
  });

  it('13.1 not through the service token: 403 even for an admin or a Super Admin', () => {
    expect(can(person([ADMIN]), 'admin_write')).toBe(true);
    expect(can(person([ADMIN], { via: 'service_token' }), 'admin')).toBe(true);
    expect(can.decide(person([ADMIN], { via: 'service_token' }), 'admin_write')).toMatchObject({
      allowed: false,
      refusal: 'forbidden',
    });
    expect(can(person([SUPER], { via: 'service_token' }), 'admin_write')).toBe(false);
  });

  it("13.1 a verified global Super Admin passes every rule where the policy says 'all'; a label or 'none' passes nothing extra", () => {
    expect(can(person([SUPER]), 'nobody')).toBe(true);
    expect(can(person([SUPER]), 'machine')).toBe(true);
    expect(can(person([{ ...SUPER, verified: false }]), 'admin')).toBe(false);
    const none = createCan({ ...policy, superAdmin: 'none' });
    expect(none(person([SUPER]), 'admin')).toBe(false);
    expect(none(person([SUPER]), 'staff')).toBe(true);
  });

  it('13.1 lists and gateway applications: the list names people; a token of another application is 401 with its message', () => {
    expect(can(person([], { via: 'gateway', app: 'inside-app' }), 'edit')).toBe(true);
    expect(can(person([], { email: 'other@example.com' }), 'edit')).toBe(false);
    expect(can.decide(person([], { email: 'other@example.com' }), 'edit')).toEqual({
      allowed: false,
      refusal: 'forbidden',
      message: 'Editors only',
    });
    expect(can.decide(person([], { via: 'gateway', app: 'outside-app' }), 'edit')).toMatchObject({
      allowed: false,
      refusal: 'unauthenticated',
    });
    const ownApp = createCan(
      { ...policy, actions: { ...policy.actions, edit: { ...policy.actions.edit, apps: [] } } },
      { apps: { inside: 'inside-app' } },
    );
    expect(ownApp.decide(person([], { via: 'gateway', app: 'inside-app' }), 'edit')).toEqual({
      allowed: false,
      refusal: 'unauthenticated',
      message: 'An inside token is not for this route',
    });
    // Without the application's audience configured, no gateway token is accepted for it.
    expect(
      createCan(policy, { lists: { editors: ['ed@example.com'] } })(
        person([], { via: 'gateway', app: 'inside-app' }),
        'edit',
      ),
    ).toBe(false);
  });

  it('13.1 the inputs come from the variables the policy names', () => {
    const cfg = loadConfig(
      { SAMPLE_AUD: 'inside-app', SAMPLE_EDITORS: ' Ed@Example.com ,b@example.com' },
      policyConfig(policy),
    );
    expect(policyInputs(policy, cfg)).toEqual({
      apps: { inside: 'inside-app' },
      lists: { editors: ['ed@example.com', 'b@example.com'] },
    });
    expect(() => loadConfig({ SAMPLE_EDITORS: 'not an email' }, { SAMPLE_EDITORS: emailList() })).toThrow(
      /SAMPLE_EDITORS/,
    );
  });
});
