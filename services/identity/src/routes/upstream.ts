import type { App, Database } from '@platform/kit';
import type { FastifyReply } from 'fastify';
import type { default as Provider } from 'oidc-provider';
import { escapeHtml } from '../oauth/provider.ts';
import { UpstreamFailure, type UpstreamSignIn } from '../oauth/upstream.ts';
import { matchUpstreamPerson, type Refusal } from '../oauth/upstream-person.ts';
import type { DB } from '../store/db.ts';
import { expired, hidden, htmlPage, interactionSteps } from './interaction-steps.ts';

/** Identity's one callback at the upstream (registered there exactly). */
export const UPSTREAM_CALLBACK_PATH = '/upstream/callback';

export interface UpstreamRouteDeps {
  provider: Provider;
  database: Database<DB>;
  upstream: UpstreamSignIn;
  clock: () => Date;
}

const reasons: Record<Refusal, (name: string, email?: string) => string> = {
  no_email: (name) => `${name} did not tell us your email address, so we cannot tell who you are here.`,
  email_unverified: (name, email) =>
    `${name} has not verified your email address ${email}. Verify it there, then sign in again.`,
  unknown_person: (_name, email) =>
    `There is no one with the email address ${email} here. Ask a platform admin to add you, then sign in again.`,
  linked_elsewhere: (name, email) =>
    `${email} already signs in here with another ${name} account. Use that account, or ask a platform admin.`,
};

/**
 * Sign-in through the upstream OpenID provider: the sign-in page's button sends the browser
 * there, the upstream sends it back to one fixed callback, which hands it on to a path under the
 * interaction (where the interaction's cookie is sent), and only then is the answer checked. A
 * callback from another browser therefore never finishes this browser's interaction. Refusals
 * show a page and finish nothing: no session, and the person may still sign in another way.
 */
export function upstreamRoutes(app: App, deps: UpstreamRouteDeps) {
  const { provider, upstream } = deps;
  const { details, finish } = interactionSteps(provider);

  const refused = (reply: FastifyReply, uid: string, status: number, message: string) =>
    htmlPage(
      reply,
      status,
      'Not signed in',
      `<p class="error">${escapeHtml(message)}</p><p><a href="/interaction/${escapeHtml(uid)}">Back to sign-in</a></p>`,
    );

  app.post<{ Params: { uid: string } }>('/interaction/:uid/upstream', hidden, async (req, reply) => {
    const d = await details(req, reply);
    if (!d || d.uid !== req.params.uid || d.prompt.name !== 'login') return expired(reply);
    try {
      const url = await upstream.start(d.uid, Math.max(1, d.exp - Math.floor(Date.now() / 1000)));
      return reply.redirect(url.toString(), 303);
    } catch (e) {
      if (!(e instanceof UpstreamFailure)) throw e;
      req.log.warn({ err: e }, 'upstream sign-in could not start');
      return refused(reply, d.uid, 502, `${upstream.settings.name} cannot be reached just now. Try again later.`);
    }
  });

  app.get<{ Querystring: Record<string, string> }>(UPSTREAM_CALLBACK_PATH, hidden, async (req, reply) => {
    const query = new URLSearchParams(req.query);
    const uid = await upstream.interactionOf(query.get('state'));
    if (!uid) return expired(reply);
    return reply.redirect(`/interaction/${encodeURIComponent(uid)}/upstream/callback?${query}`, 303);
  });

  app.get<{ Params: { uid: string }; Querystring: Record<string, string> }>(
    '/interaction/:uid/upstream/callback',
    hidden,
    async (req, reply) => {
      const d = await details(req, reply);
      if (!d || d.uid !== req.params.uid || d.prompt.name !== 'login') return expired(reply);
      let person: Awaited<ReturnType<UpstreamSignIn['finish']>>;
      try {
        person = await upstream.finish(d.uid, new URLSearchParams(req.query));
      } catch (e) {
        if (!(e instanceof UpstreamFailure)) throw e;
        if (e.kind === 'expired') return expired(reply);
        req.log.warn({ err: e, kind: e.kind }, 'upstream sign-in failed');
        return refused(
          reply,
          d.uid,
          400,
          e.kind === 'denied'
            ? `${upstream.settings.name} did not sign you in: ${e.message}`
            : `Signing in with ${upstream.settings.name} did not work: ${e.message}`,
        );
      }
      const match = await matchUpstreamPerson(deps.database.db, person, deps.clock());
      if ('refused' in match) {
        req.log.info({ refused: match.refused }, 'upstream sign-in refused');
        return refused(reply, d.uid, 403, reasons[match.refused](upstream.settings.name, person.email));
      }
      return finish(req, reply, { login: { accountId: match.fid } });
    },
  );
}
