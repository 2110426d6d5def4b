import { AppError, Envelope, headerValue, type Principal } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { callOnDemand } from '../commands/on-demand.ts';
import { CallerHeaders } from '../schemas/common.ts';
import { OnDemandBody, OnDemandHeaders, OnDemandParams, OnDemandReply } from '../schemas/wakes.ts';
import { type Routes, route } from './deps.ts';

/**
 * The caller of an on-demand call is a person signed in at the access gateway (AGT-188); the dev
 * header stands in for it locally (DEV_AUTH=1). A platform access token, a broker credential or
 * the service token acting for someone is 401 gateway_session_required: the secret is not looked at.
 */
const gatewaySession = async (req: FastifyRequest) => {
  const p = req.principal as Principal | null;
  const signedIn = p !== null && p.kind === 'person' && (p.via === 'gateway' || p.via === undefined);
  if (!signedIn) {
    throw new AppError(
      401,
      'gateway_session_required',
      'An on-demand call needs the access gateway’s session (Cf-Access-Jwt-Assertion)',
    );
  }
};

/** Calling a persistent on-demand agent (spec 3: POST /v1/agents/on-demand/{slug}). */
export const ON_DEMAND_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/on-demand/:slug',
    action: 'CallOnDemand',
    tags: ['wakes'],
    summary: 'Call a persistent on-demand agent: one model turn through the broker, answered at once',
    description:
      'Body {data: {message}} -> {data: {reply, run_id}}. Needs the access-gateway session (no proof: 401 ' +
      'unauthenticated; another proof: 401 gateway_session_required) and X-Platform-On-Demand-Secret, the one-time ' +
      'secret from POST .../call-secret: missing, wrong or already used is 403 on_demand_secret_invalid and the agent ' +
      'is not called. The agent must be a persistent on-demand agent (409 agent_not_on_demand) that is started (start ' +
      'makes it take calls, stop turns it off: 409 agent_not_accepting_calls, the secret kept). Success consumes the ' +
      'secret (one conditional update: of concurrent calls with one secret one succeeds), records a run (reason ' +
      'on_demand) and publishes agent.called; no workload is started. The turn goes to the broker’s relay billed ' +
      'to the agent’s mailbox: no broker configured is 503 broker_not_configured, a broker that does not answer is ' +
      '502 broker_unavailable, and in both the secret is kept. Unknown slug: 404 agent_not_found. Not a command: the ' +
      'one-time secret makes a retry after success a 403, so no Idempotency-Key is taken.',
    command: false,
    params: OnDemandParams,
    body: OnDemandBody,
    response: Envelope(OnDemandReply),
    schema: { headers: Type.Object({ ...OnDemandHeaders, ...CallerHeaders }) },
    guard: [gatewaySession],
    errors: [
      'gateway_session_required',
      'agent_not_found',
      'on_demand_secret_invalid',
      'agent_not_on_demand',
      'agent_not_accepting_calls',
      'broker_not_configured',
      'broker_unavailable',
    ],
    handler: async (input, deps) => {
      const data = await callOnDemand(deps, {
        slug: input.params.slug,
        secret: headerValue(input.req, 'x-platform-on-demand-secret'),
        message: input.body.data.message,
        principal: input.principal,
      });
      return input.reply.envelope(data);
    },
  }),
];
