import { Type } from '@sinclair/typebox';
import { ScopeParams } from './common.ts';

// A namespace is a DNS-1123 label, a pod name a DNS-1123 subdomain (Kubernetes' own rules): the
// console refuses anything else before it asks the cluster.
const Namespace = Type.String({ pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 });
const PodName = Type.String({
  pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
  maxLength: 253,
});
const Container = Type.String({ pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 });

export const PodParams = Type.Composite([ScopeParams, Type.Object({ namespace: Namespace, pod: PodName })]);
export const NamespaceParams = Type.Composite([ScopeParams, Type.Object({ namespace: Namespace })]);

/** The browser's token on the two routes that take it (EventSource and WebSocket cannot set headers). */
const AccessToken = Type.Optional(Type.String({ description: 'The gateway token (tail and terminal only)' }));

export const LogQuery = Type.Object(
  {
    container: Type.Optional(Container),
    tail_lines: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 500 })),
    since_seconds: Type.Optional(Type.Integer({ minimum: 1 })),
    timestamps: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

// A tail starts at 1 or more of the last lines: @kubernetes/client-node's log follow drops a
// tailLines of 0 (it would then send the whole log).
export const PodTailQuery = Type.Object(
  {
    container: Type.Optional(Container),
    tail_lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 100 })),
    access_token: AccessToken,
  },
  { additionalProperties: false },
);

export const NamespaceTailQuery = Type.Object(
  {
    selector: Type.Optional(Type.String({ maxLength: 1000, description: 'A label selector (app=web,tier!=db)' })),
    tail_lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 100 })),
    access_token: AccessToken,
  },
  { additionalProperties: false },
);

export const ExecQuery = Type.Object(
  { container: Type.Optional(Container), access_token: AccessToken },
  { additionalProperties: false },
);

export const PodRow = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  phase: Type.String(),
  node: Type.Union([Type.String(), Type.Null()]),
  ready: Type.String({ description: 'Ready containers over all, as kubectl shows it' }),
  restarts: Type.Integer(),
  containers: Type.Array(Type.String()),
  labels: Type.Record(Type.String(), Type.String()),
  created_at: Type.Union([Type.String(), Type.Null()]),
  cpu_millicores: Type.Union([Type.Number(), Type.Null()], {
    description: 'Current usage from metrics.k8s.io; null when the cluster reports none',
  }),
  memory_bytes: Type.Union([Type.Integer(), Type.Null()]),
});

export const EventRow = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  type: Type.String(),
  reason: Type.String(),
  message: Type.String(),
  object: Type.Object({
    kind: Type.String(),
    name: Type.String(),
    namespace: Type.Union([Type.String(), Type.Null()]),
  }),
  count: Type.Integer(),
  first_seen: Type.Union([Type.String(), Type.Null()]),
  last_seen: Type.Union([Type.String(), Type.Null()]),
});

export const PodLogs = Type.Object({
  namespace: Type.String(),
  pod: Type.String(),
  container: Type.String(),
  lines: Type.Array(Type.String()),
});

/**
 * What a tail sends (text/event-stream): `event: line` with {pod, container, line}; `event: pod`
 * with {pod, container, state: following | ended} as pods come and go; `event: error` with
 * {code, message}; `event: end` when a pod tail's pod is gone.
 */
export interface TailLineEvent {
  pod: string;
  container: string;
  line: string;
}
