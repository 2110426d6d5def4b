import * as client from 'openid-client';
import type { Db } from '../store/db.ts';
import { oidcAdapterFactory } from '../store/oidc-adapter.ts';

/** An upstream OpenID provider people may sign in with (UPSTREAM_OIDC_*). */
export interface UpstreamSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the button: "Sign in with <name>". */
  name: string;
}

/** What the upstream says about the person, after the ID token checked out. */
export interface UpstreamPerson {
  /** The issuer as the upstream's metadata spells it: half of the stable key. */
  issuer: string;
  sub: string;
  email?: string;
  emailVerified: boolean;
}

/** Why a trip to the upstream came back without a person. */
export class UpstreamFailure extends Error {
  constructor(
    /** expired: no such attempt (or another browser's); denied: the upstream said no; failed: anything else. */
    readonly kind: 'expired' | 'denied' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** A sign-in started at the upstream, kept on the server under its state until the callback. */
interface Attempt {
  uid: string;
  verifier: string;
  nonce: string;
}

/** Loopback http is for local upstreams and tests only; anything else must be https. */
const loopbackHttp = (issuer: string) => {
  const u = new URL(issuer);
  return u.protocol === 'http:' && ['127.0.0.1', '[::1]'].includes(u.hostname);
};

/**
 * Identity as a client of the upstream: authorization code with PKCE, state and nonce, a
 * confidential client (client_secret_basic, the OpenID default). The upstream's metadata is read
 * on first use, so identity starts while the upstream is down and says so on the sign-in page.
 */
export class UpstreamSignIn {
  private config?: Promise<client.Configuration>;
  private readonly attempts;

  constructor(
    readonly settings: UpstreamSettings,
    /** Identity's callback, registered at the upstream exactly. */
    readonly redirectUri: string,
    db: Db,
  ) {
    const Adapter = oidcAdapterFactory(db);
    this.attempts = new Adapter('UpstreamSignIn');
  }

  private configuration() {
    this.config ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        undefined,
        client.ClientSecretBasic(this.settings.clientSecret),
        loopbackHttp(this.settings.issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((e: unknown) => {
        // Try again on the next sign-in rather than remember an outage.
        this.config = undefined;
        throw new UpstreamFailure('failed', `${this.settings.name} cannot be reached (${(e as Error).message})`);
      });
    return this.config;
  }

  /** The upstream's authorization URL for this interaction; the attempt lives as long as the interaction. */
  async start(uid: string, ttlSeconds: number): Promise<URL> {
    const config = await this.configuration();
    const state = client.randomState();
    const attempt: Attempt = { uid, verifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce() };
    await this.attempts.upsert(state, { ...attempt }, ttlSeconds);
    return client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: 'openid email',
      state,
      nonce: attempt.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(attempt.verifier),
      code_challenge_method: 'S256',
    });
  }

  private async attempt(state: string | null) {
    return state ? ((await this.attempts.find(state)) as Attempt | undefined) : undefined;
  }

  /** Which interaction a callback belongs to (its state names the attempt). */
  async interactionOf(state: string | null): Promise<string | undefined> {
    return (await this.attempt(state))?.uid;
  }

  /**
   * Checks the upstream's answer for interaction `uid` and returns the person it vouches for.
   * The attempt is used up whatever happens, so a callback URL cannot be replayed.
   */
  async finish(uid: string, query: URLSearchParams): Promise<UpstreamPerson> {
    const state = query.get('state');
    const attempt = await this.attempt(state);
    if (!state || !attempt || attempt.uid !== uid) throw new UpstreamFailure('expired', 'this sign-in has expired');
    await this.attempts.destroy(state);
    const config = await this.configuration();
    const current = new URL(this.redirectUri);
    current.search = query.toString();
    try {
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: attempt.verifier,
        expectedState: state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      const id = tokens.claims();
      if (!id) throw new Error('no ID token');
      let claims: Record<string, unknown> = id;
      // Many providers put email only in userinfo when the ID token comes from the token endpoint.
      if (id.email === undefined && config.serverMetadata().userinfo_endpoint) {
        claims = await client.fetchUserInfo(config, tokens.access_token, id.sub);
      }
      return {
        issuer: config.serverMetadata().issuer,
        sub: id.sub,
        email: typeof claims.email === 'string' && claims.email !== '' ? claims.email : undefined,
        // Some providers send the string "true".
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      };
    } catch (e) {
      if (e instanceof client.AuthorizationResponseError) {
        throw new UpstreamFailure('denied', e.error_description ?? e.error);
      }
      throw new UpstreamFailure('failed', (e as Error).message);
    }
  }
}
