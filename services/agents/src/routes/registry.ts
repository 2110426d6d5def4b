import { Envelope, unprocessable } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { HARNESSES, harnessById, TOOLS } from '../domain/harnesses.ts';
import { type Routes, route } from './deps.ts';

const tags = ['registry'];

const HarnessView = Type.Object({
  id: Type.String(),
  description: Type.String(),
  allows_skills: Type.Boolean(),
  tools: Type.Array(Type.String(), { description: 'Tools an agent on this harness may be granted' }),
  features: Type.Array(Type.String(), { description: 'repo_scope: a coding harness' }),
  always_granted: Type.Array(Type.String(), { description: 'Tools every agent on it has, never stored in grants' }),
});

const ToolView = Type.Object({
  name: Type.String(),
  family: Type.String(),
  description: Type.String(),
  schema: Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the tool’s arguments' }),
  harnesses: Type.Array(Type.String(), { description: 'The harnesses permitting the tool' }),
  always_granted: Type.Boolean({
    description: 'With harness_id: always granted on it. Without: always granted on every harness permitting it',
  }),
});

const ToolsQuery = Type.Object(
  { harness_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);

/** The harness and tool registry (spec 3): data in src/domain/harnesses.ts, read by any staff caller. */
export const REGISTRY_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/harnesses',
    action: 'ReadAgents',
    tags,
    summary: 'The harness registry: allows_skills, permitted tools, features and always-granted tools of each',
    description: 'The first harness is the default of new agents; the first declaring repo_scope, of coding agents.',
    response: Envelope(Type.Array(HarnessView)),
    handler: async ({ reply }) =>
      reply.envelope(
        HARNESSES.map((h) => ({
          id: h.id,
          description: h.description,
          allows_skills: h.allows_skills,
          tools: [...h.tools],
          features: [...h.features],
          always_granted: [...h.always_granted],
        })),
      ),
  }),

  route({
    method: 'GET',
    url: '/v1/tools',
    action: 'ReadAgents',
    tags,
    summary: 'The tool catalog (name, family, description, schema); harness_id narrows it to that harness’s tools',
    description:
      'always_granted: true marks the tools an agent has without a grant (with harness_id: on that harness). An ' +
      'unknown harness_id is 422 harness_not_found.',
    query: ToolsQuery,
    response: Envelope(Type.Array(ToolView)),
    errors: ['harness_not_found'],
    handler: async ({ query, reply }) => {
      const only = query.harness_id === undefined ? undefined : harnessById(query.harness_id);
      if (query.harness_id !== undefined && !only) {
        throw unprocessable('harness_not_found', 'No such harness', 'querystring/harness_id');
      }
      const tools = only ? TOOLS.filter((t) => only.tools.includes(t.name)) : TOOLS;
      return reply.envelope(
        tools.map((t) => {
          const permitting = HARNESSES.filter((h) => h.tools.includes(t.name));
          return {
            name: t.name,
            family: t.family,
            description: t.description,
            schema: t.schema,
            harnesses: permitting.map((h) => h.id),
            always_granted: only
              ? only.always_granted.includes(t.name)
              : permitting.length > 0 && permitting.every((h) => h.always_granted.includes(t.name)),
          };
        }),
      );
    },
  }),
];
