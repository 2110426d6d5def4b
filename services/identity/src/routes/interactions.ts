import type { App, Database } from '@platform/kit';
import type { default as Provider } from 'oidc-provider';
import { verifyPassword } from '../domain/passwords.ts';
import { page } from '../oauth/pages.ts';
import { escapeHtml } from '../oauth/provider.ts';
import type { DB } from '../store/db.ts';
import { findPersonByEmail } from '../store/people.ts';
import { expired, hidden, interactionSteps } from './interaction-steps.ts';

export interface InteractionDeps {
  provider: Provider;
  database: Database<DB>;
  /** Local mode: the dev principals sign in with one click. */
  devPeople?: () => Promise<{ email: string; label: string }[]>;
  /** The upstream OpenID provider's name when one is configured: the page offers it first. */
  upstreamName?: string;
}

type Form = Record<string, string | undefined>;

/**
 * The sign-in page of the authorization server: the only place a password is typed (SIGN-006).
 * Consent never shows: first-party clients are granted on the server, and any other client is
 * refused (SIGN-015, SIGN-047).
 */
export function interactionRoutes(app: App, deps: InteractionDeps) {
  const { provider } = deps;
  const { details, finish } = interactionSteps(provider);

  const loginPage = async (uid: string, error?: string) => {
    const dev = deps.devPeople ? await deps.devPeople() : [];
    const devList = dev.length
      ? `<h2>Local development</h2><form class="dev" method="post" action="/interaction/${uid}/dev">${dev
          .map(
            (p) =>
              `<button name="email" value="${escapeHtml(p.email)}">${escapeHtml(p.label)} <small>${escapeHtml(p.email)}</small></button>`,
          )
          .join('')}</form>`
      : '';
    const upstream = deps.upstreamName
      ? `<form method="post" action="/interaction/${uid}/upstream"><button class="upstream" type="submit">Sign in with ${escapeHtml(deps.upstreamName)}</button></form><p class="or">or with a password</p>`
      : '';
    return page(
      'Sign in',
      `${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}${upstream}
<form method="post" action="/interaction/${uid}/login">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>${devList}`,
    );
  };

  app.get<{ Params: { uid: string } }>('/interaction/:uid', hidden, async (req, reply) => {
    const d = await details(req, reply);
    if (!d || d.uid !== req.params.uid) return expired(reply);
    if (d.prompt.name === 'login') return reply.type('text/html').send(await loginPage(d.uid));
    const client = await provider.Client.find(String(d.params.client_id));
    if (client?.metadata().first_party === true && d.session?.accountId) {
      // The server accepts consent for first-party clients (native apps are asked again by default).
      const grant = d.grantId
        ? ((await provider.Grant.find(d.grantId)) ??
          new provider.Grant({ clientId: client.clientId, accountId: d.session.accountId }))
        : new provider.Grant({ clientId: client.clientId, accountId: d.session.accountId });
      grant.addOIDCScope('openid');
      const audience = d.params.audience;
      if (typeof audience === 'string') grant.addResourceScope(audience, 'openid');
      return finish(req, reply, { consent: { grantId: await grant.save() } });
    }
    // A client that is not first-party is refused consent.
    return finish(req, reply, {
      error: 'access_denied',
      error_description: 'consent is refused for clients that are not first-party',
    });
  });

  app.post<{ Params: { uid: string }; Body: Form }>('/interaction/:uid/login', hidden, async (req, reply) => {
    const d = await details(req, reply);
    if (!d || d.uid !== req.params.uid || d.prompt.name !== 'login') return expired(reply);
    const email = String(req.body?.email ?? '').trim();
    const password = String(req.body?.password ?? '');
    const person = email ? await findPersonByEmail(deps.database.db, email) : undefined;
    const ok = await verifyPassword(password, person?.password_hash);
    if (!person || !ok) {
      return reply
        .code(401)
        .type('text/html')
        .send(await loginPage(d.uid, 'Wrong email or password.'));
    }
    return finish(req, reply, { login: { accountId: person.fid } });
  });

  app.post<{ Params: { uid: string }; Body: Form }>('/interaction/:uid/dev', hidden, async (req, reply) => {
    const d = await details(req, reply);
    if (!d || d.uid !== req.params.uid || d.prompt.name !== 'login' || !deps.devPeople) return expired(reply);
    const email = String(req.body?.email ?? '');
    const allowed = (await deps.devPeople()).some((p) => p.email === email);
    const person = allowed ? await findPersonByEmail(deps.database.db, email) : undefined;
    if (!person)
      return reply
        .code(401)
        .type('text/html')
        .send(await loginPage(d.uid, 'Not a dev principal.'));
    return finish(req, reply, { login: { accountId: person.fid } });
  });

  app.post<{ Params: { uid: string } }>('/interaction/:uid/abort', hidden, async (req, reply) => {
    const d = await details(req, reply);
    if (!d || d.uid !== req.params.uid) return expired(reply);
    return finish(req, reply, { error: 'access_denied', error_description: 'the person cancelled sign-in' });
  });
}
