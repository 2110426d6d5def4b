import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { uuidv5 } from '../ids.ts';
import { EMAIL_RE, type PrincipalDirectory, SERVICE_PRINCIPAL_RE } from './directory.ts';
import type { Grant, Principal } from './principal.ts';

/** The fixed namespace under which local dev principals get their stable FIDs (DECISIONS item 3). */
export const DEV_FID_NAMESPACE = '6f1c1a52-3c1e-4b8e-9a57-2f2d7c0f0a11';

/** Dev FIDs already computed (a SHA-1 per request otherwise); bounded, cleared when full. */
const devFids = new Map<string, string>();

export const devFid = (email: string): string => {
  let fid = devFids.get(email);
  if (fid === undefined) {
    fid = uuidv5(email.trim().toLowerCase(), DEV_FID_NAMESPACE);
    if (devFids.size >= 10_000) devFids.clear();
    devFids.set(email, fid);
  }
  return fid;
};

interface DevFile {
  people: { email: string; given_name?: string; family_name?: string; grants: Grant[] }[];
  services: { id: string; grants?: Grant[] }[];
}

export const DEFAULT_DEV_PRINCIPALS = fileURLToPath(new URL('../../../../config/dev-principals.json', import.meta.url));

/**
 * The local stand-in for the identity service: people by email (FID = devFid(email)) and
 * services by `service:<name>`. `resolve` reads an `X-Dev-Principal` value (honoured only when
 * DEV_AUTH=1); any email not in the file is a signed-in person with no grants.
 */
export class DevPrincipals implements PrincipalDirectory {
  private readonly people = new Map<string, Principal>();
  private readonly peopleById = new Map<string, Principal>();
  private readonly services = new Map<string, Principal>();

  constructor(file: DevFile) {
    for (const p of file.people) {
      const email = p.email.toLowerCase();
      const person: Principal = { id: devFid(email), kind: 'person', email, grants: p.grants };
      this.people.set(email, person);
      this.peopleById.set(person.id, person);
    }
    for (const s of file.services) {
      this.services.set(s.id, { id: s.id, kind: 'service', grants: s.grants ?? [] });
    }
  }

  static load(path = DEFAULT_DEV_PRINCIPALS): DevPrincipals {
    return new DevPrincipals(JSON.parse(readFileSync(path, 'utf8')) as DevFile);
  }

  async byId(id: string): Promise<Principal | null> {
    return this.services.get(id) ?? this.peopleById.get(id.toLowerCase()) ?? null;
  }

  async byEmail(email: string): Promise<Principal | null> {
    return this.people.get(email.trim().toLowerCase()) ?? null;
  }

  resolve(value: string): Principal | null {
    const v = value.trim();
    if (v.startsWith('service:')) {
      if (!SERVICE_PRINCIPAL_RE.test(v)) return null;
      return this.services.get(v) ?? { id: v, kind: 'service', grants: [] };
    }
    const email = v.toLowerCase();
    if (!EMAIL_RE.test(email)) return null;
    return this.people.get(email) ?? { id: devFid(email), kind: 'person', email, grants: [] };
  }

  list(): Principal[] {
    return [...this.people.values(), ...this.services.values()];
  }
}
