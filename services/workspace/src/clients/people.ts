import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * People as the identity service knows them: the workspace stores a person's FID only, and the
 * question-messaging worker needs their email to find their chat account (Slack's
 * users.lookupByEmail). One call: GET <IDENTITY_URL>/v1/people/{fid} with the shared service token
 * (X-Platform-Service-Token), answered in the platform envelope `{header, payload: {data: Person}}`.
 */

export const IdentityPerson = Type.Object({ fid: Type.Optional(Type.String()), email: Type.String({ minLength: 3 }) });
export type IdentityPerson = Static<typeof IdentityPerson>;

export interface People {
  /** The person's email; undefined when identity does not know them or could not answer. */
  emailOf(fid: string): Promise<string | undefined>;
}

export interface PeopleOptions {
  /** IDENTITY_URL. */
  baseUrl: string;
  serviceToken?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const Answer = Type.Object({ payload: Type.Object({ data: IdentityPerson }) });

export class HttpPeople implements People {
  constructor(private readonly o: PeopleOptions) {}

  async emailOf(fid: string): Promise<string | undefined> {
    const f = this.o.fetch ?? fetch;
    try {
      const res = await f(new URL(`/v1/people/${encodeURIComponent(fid)}`, this.o.baseUrl), {
        headers: this.o.serviceToken ? { 'x-platform-service-token': this.o.serviceToken } : {},
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 10_000),
      });
      if (res.status !== 200) return undefined;
      const body: unknown = await res.json();
      return Value.Check(Answer, body) ? body.payload.data.email : undefined;
    } catch {
      return undefined;
    }
  }
}
