import { Type } from '@sinclair/typebox';

const Role = Type.Union([Type.Literal('viewer'), Type.Literal('engineer'), Type.Literal('admin')]);

export const Caller = Type.Object({
  email: Type.String(),
  role: Role,
});

const Entry = Type.Object({ name: Type.String(), domain: Type.String(), tags: Type.Array(Type.String()) });

const Part = Type.Object({
  variable: Type.Union([Type.String(), Type.Null()], { description: 'The variable naming it (never its value)' }),
  configured: Type.Boolean(),
});

export const Subscription = Type.Object({
  region: Type.String(),
  subscription: Type.String(),
  /** Its database and bus can be reached: false for a subscription not yet provisioned (OPS-009). */
  ready: Type.Boolean(),
  parts: Type.Object({
    cluster: Part,
    bus: Part,
    database: Part,
    flags: Type.Union([Part, Type.Null()], { description: 'null: the subscription has no flag-server block' }),
  }),
  services: Type.Array(Entry),
  apps: Type.Array(Entry),
  gateways: Type.Array(Entry),
  processes: Type.Array(Entry),
  domains: Type.Array(Type.Object({ name: Type.String(), tags: Type.Array(Type.String()) })),
});

export const Environments = Type.Object({
  /** ENV: the environment this console serves (OPS-005), a tag (OPS-008). */
  env: Type.Union([Type.Literal('dev'), Type.Literal('prod')]),
  caller: Caller,
  subscriptions: Type.Array(Subscription),
});
