/**
 * How the page gets its gateway token. Behind the real access gateway (mode "gateway") the
 * gateway adds the header itself and the page holds nothing. Locally (mode "identity") identity
 * stands in for the gateway: the page signs in there (authorization code + PKCE, one click on a
 * dev principal), then trades the access token for a gateway JWT for the console's audience and
 * sends that as Cf-Access-Jwt-Assertion and as access_token on EventSource and WebSocket URLs.
 */
export type SignIn =
  | { mode: 'gateway' }
  | {
      mode: 'identity';
      /** Identity's issuer URL (its discovery document is public and answers any origin). */
      issuer: string;
      client_id: string;
      /** The platform audience the access token is for (identity's own API takes it). */
      audience: string;
      /** Where the console trades the access token for a gateway token (same origin). */
      gateway_token_path: string;
    };

const TOKEN_KEY = 'console.gateway-token';
const PENDING_KEY = 'console.sign-in';

interface Held {
  token: string;
  expires_at: string;
  email?: string;
}

function held(): Held | null {
  try {
    const raw = sessionStorage.getItem(TOKEN_KEY);
    if (!raw) return null;
    const h = JSON.parse(raw) as Held;
    // A minute's margin: a token about to lapse would fail mid-tail.
    if (Date.parse(h.expires_at) - 60_000 < Date.now()) return null;
    return h;
  } catch {
    return null;
  }
}

export const currentToken = (): string | null => held()?.token ?? null;

/** The email in the held token (for the header); the console's own answer gives the role. */
export const currentEmail = (): string | null => held()?.email ?? null;

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
}

export async function loadSignIn(): Promise<SignIn> {
  const res = await fetch('/ui/config.json', { headers: { accept: 'application/json' } });
  if (!res.ok) return { mode: 'gateway' };
  return (await res.json()) as SignIn;
}

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = (n = 32) => b64url(crypto.getRandomValues(new Uint8Array(n)));

async function discover(issuer: string): Promise<{ authorization_endpoint: string; token_endpoint: string }> {
  const res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`identity's discovery answered ${res.status}`);
  return (await res.json()) as { authorization_endpoint: string; token_endpoint: string };
}

const redirectUri = () => `${window.location.origin}/callback`;

/** Off to identity's sign-in page; back at /callback with a code. */
export async function startSignIn(cfg: Extract<SignIn, { mode: 'identity' }>) {
  const meta = await discover(cfg.issuer);
  const verifier = random(48);
  const state = random(24);
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, back: window.location.hash }));
  const url = new URL(meta.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: cfg.client_id,
    response_type: 'code',
    redirect_uri: redirectUri(),
    scope: 'openid',
    audience: cfg.audience,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  window.location.assign(url.toString());
}

/** At /callback: the code for an access token at identity, then that for a gateway token. */
export async function finishSignIn(cfg: Extract<SignIn, { mode: 'identity' }>): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as {
    verifier: string;
    state: string;
    back: string;
  } | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (params.get('error'))
    throw new Error(`sign-in refused: ${params.get('error_description') ?? params.get('error')}`);
  const code = params.get('code');
  if (!pending || !code || params.get('state') !== pending.state) throw new Error('sign-in answer does not match');
  const meta = await discover(cfg.issuer);
  const tokenRes = await fetch(meta.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      client_id: cfg.client_id,
      code_verifier: pending.verifier,
    }).toString(),
  });
  if (!tokenRes.ok) throw new Error(`identity's token endpoint answered ${tokenRes.status}`);
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const gw = await fetch(cfg.gateway_token_path, { headers: { authorization: `Bearer ${access_token}` } });
  if (!gw.ok) throw new Error(`the gateway stand-in answered ${gw.status}`);
  const body = (await gw.json()) as { payload: { data: { token: string; expires_at: string } } };
  const { token, expires_at } = body.payload.data;
  sessionStorage.setItem(TOKEN_KEY, JSON.stringify({ token, expires_at, email: emailIn(token) } satisfies Held));
  window.history.replaceState(null, '', `/${pending.back || '#/'}`);
}

function emailIn(jwt: string): string | undefined {
  try {
    const part = jwt.split('.')[1] ?? '';
    const claims = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { email?: string };
    return claims.email;
  } catch {
    return undefined;
  }
}
