import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionResults, default as Provider } from 'oidc-provider';
import { page } from '../oauth/pages.ts';

/** Interaction routes are the sign-in server's own pages, not API: kept out of the OpenAPI document. */
export const hidden = { schema: { hide: true } };

/** The steps every sign-in route shares: read the browser's interaction, finish it. */
export function interactionSteps(provider: Provider) {
  return {
    /** The interaction this browser is in (its cookie), or null when it has none or it ended. */
    async details(req: FastifyRequest, reply: FastifyReply) {
      try {
        return await provider.interactionDetails(req.raw, reply.raw);
      } catch {
        return null;
      }
    },
    async finish(req: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
      reply.hijack();
      await provider.interactionFinished(req.raw, reply.raw, result, { mergeWithLastSubmission: false });
    },
  };
}

export const htmlPage = (reply: FastifyReply, status: number, title: string, body: string) =>
  reply.code(status).type('text/html').send(page(title, body));

export const expired = (reply: FastifyReply) =>
  htmlPage(reply, 400, 'Sign-in expired', '<p>This sign-in has expired. Go back to the app and start again.</p>');
