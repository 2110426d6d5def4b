import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import {
  acceptWebSocket,
  EXEC_PROTOCOL,
  type FakeExecSession,
  offeredProtocols,
  runExecSession,
  ServerWebSocket,
} from './fake-kubernetes-exec.ts';

export { EXEC_PROTOCOL, type FakeExecSession } from './fake-kubernetes-exec.ts';

/**
 * A small Kubernetes API server for tests (ARCHITECTURE.md, "Outside systems, runners and
 * schedules"): real HTTP on 127.0.0.1, the real paths, object metadata and `Status` error bodies,
 * request bodies checked against Kubernetes' OpenAPI schemas (kubernetes-models) plus the handful
 * of API-server validations a client is likely to trip over (names, labels, selectors, restart
 * policies, immutable fields). Controllers do not run: a Deployment gets no ReplicaSet or Pod, a
 * Job never finishes, status stays as written. Kinds live in a registry so another service (the
 * operations console) can serve what it reads. Besides the CRUD paths it serves what the console
 * reads: watches (`?watch=true`, newline-delimited events), a pod's log (plain text, `follow`
 * keeps it open until the pod goes or stops), metrics.k8s.io's PodMetrics and exec over a
 * `v4.channel.k8s.io` WebSocket with a small shell behind it.
 */

// biome-ignore lint/suspicious/noExplicitAny: Kubernetes objects are open JSON documents.
export type KubeObject = Record<string, any>;

export interface FakeKind {
  kind: string;
  /** '' for the core group (/api/v1). */
  group: string;
  version: string;
  /** The resource name in paths (deployments). */
  plural: string;
  namespaced: boolean;
  /** Whether metadata.generation counts changes outside metadata and status (workloads do, Secrets do not). */
  generation: boolean;
  /** Whether status is a subresource: writes to the main resource leave it as it was. */
  statusSubresource: boolean;
  /** The kubernetes-models class for the kind; its validate() throws on a body off the OpenAPI schema. */
  model: () => Promise<new (data: KubeObject) => { validate(): void }>;
  /** The API server's defaulting, applied on create and update. */
  defaults?: (object: KubeObject) => void;
  /** API-server validation beyond the schema; `old` is set on update. */
  validate?: (object: KubeObject, old?: KubeObject) => Cause[];
}

export interface Cause {
  field: string;
  message: string;
  reason?: string;
}

export interface FakeKubernetesRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType?: string;
  /** The parsed body as sent (undefined when there was none). */
  body?: unknown;
  /** The resource (plural) and, when in the path, namespace and name. */
  resource?: string;
  namespace?: string;
  name?: string;
  /** log or exec on a pod. */
  subresource?: string;
  status: number;
}

export interface ContainerUsage {
  name: string;
  /** Quantities as metrics-server writes them: cpu in nanocores or millicores (`12345n`, `5m`), memory in Ki or Mi. */
  usage: { cpu: string; memory: string };
}

export interface FakeKubernetes {
  url: string;
  /** A kubeconfig (YAML) pointing at this server: `insecure-skip-tls-verify` because it speaks plain http. */
  kubeconfig(namespace?: string): string;
  /** Every request answered, in order. */
  requests: FakeKubernetesRequest[];
  /** Stored objects of one kind (by kind, e.g. 'Deployment'), in key order; copies. */
  objects(kind: string, namespace?: string): KubeObject[];
  /** One stored object, or undefined; a copy. */
  get(kind: string, namespace: string | undefined, name: string): KubeObject | undefined;
  /** Stores an object as if created through the API (metadata filled in), bypassing the request log. */
  seed(object: KubeObject): KubeObject;
  /** Changes a stored object as another writer would (defaults, validation, resourceVersion and generation as for a PUT). */
  modify(kind: string, namespace: string | undefined, name: string, change: (object: KubeObject) => void): KubeObject;
  /**
   * Writes an object's status as its controller would through the status subresource (the Job
   * controller's active, failed and conditions; a Pod's phase and container states): a new
   * resourceVersion, spec and metadata untouched. Controllers do not run here; a test (or a
   * simulated controller) decides what the status becomes.
   */
  setStatus(kind: string, namespace: string | undefined, name: string, status: KubeObject): KubeObject;
  /** Deletes a stored object as another writer would; false when there was none. */
  remove(kind: string, namespace: string | undefined, name: string): boolean;
  /**
   * Runs `change` once, just before the next request matching `match` is handled: a test stands in
   * for a concurrent writer (e.g. changes an object so the request's resourceVersion is stale).
   */
  beforeNext(match: { method: string; resource: string; name?: string }, change: () => void): void;
  /** Serves another kind besides the built-in ones (Deployment, Job, Secret, ConfigMap, Pod, Event). */
  register(kind: FakeKind): Promise<void>;
  /**
   * Appends lines to a container's log as the container would write them (the container defaults
   * to the pod's first); open `follow` reads receive them at once. `time` stamps the lines
   * (default now) for `timestamps`, `sinceTime` and `sinceSeconds`.
   */
  appendLog(
    namespace: string,
    pod: string,
    lines: string | string[],
    options?: { container?: string; time?: Date },
  ): void;
  /** The usage metrics-server reports for a pod at metrics.k8s.io/v1beta1 (only while the pod exists). */
  setPodMetrics(
    namespace: string,
    pod: string,
    containers: ContainerUsage[],
    options?: { window?: string; time?: Date },
  ): void;
  /** The executables a pod's containers have (default bash, sh and echo): exec of another fails as a runtime would. */
  setExecutables(namespace: string, pod: string, names: string[]): void;
  /** Exec sessions the server accepted, in order. */
  execs: FakeExecSession[];
  /** Ends every open watch, as an API server does when a watch's time is up (clients watch again from their last resourceVersion). */
  endWatches(): void;
  /** Watches and log follows open now. */
  openStreams(): { watches: number; follows: number };
  /** Resolves once `check` holds for the open streams (a test waits for a client to be listening, never sleeps). */
  untilStreams(check: (open: { watches: number; follows: number }) => boolean): Promise<void>;
  close(): Promise<void>;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

function nameCauses(value: unknown, field: string, pattern: RegExp, max: number): Cause[] {
  if (typeof value !== 'string' || value === '') return [{ field, message: 'Required value: name is required' }];
  if (value.length > max || !pattern.test(value)) {
    return [
      {
        field,
        message: `Invalid value: "${value}": must be no more than ${max} characters, lowercase alphanumerics and '-' (and '.' in a subdomain), starting and ending with an alphanumeric`,
      },
    ];
  }
  return [];
}

function qualifiedNameCauses(key: string, field: string): Cause[] {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const bad =
    (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) ||
    name.length > 63 ||
    !QUALIFIED_NAME.test(name);
  return bad
    ? [
        {
          field,
          message: `Invalid value: "${key}": name part must consist of alphanumerics, '-', '_' or '.' (at most 63), with an optional DNS subdomain prefix`,
        },
      ]
    : [];
}

function labelCauses(labels: unknown, field: string): Cause[] {
  if (labels === undefined || labels === null) return [];
  const causes: Cause[] = [];
  for (const [key, value] of Object.entries(labels as Record<string, unknown>)) {
    causes.push(...qualifiedNameCauses(key, field));
    if (typeof value !== 'string' || (value !== '' && (value.length > 63 || !QUALIFIED_NAME.test(value)))) {
      causes.push({
        field: `${field}`,
        message: `Invalid value: "${String(value)}": a label value must be 63 characters or less, alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric`,
      });
    }
  }
  return causes;
}

function annotationCauses(annotations: unknown, field: string): Cause[] {
  if (annotations === undefined || annotations === null) return [];
  return Object.keys(annotations as object).flatMap((key) => qualifiedNameCauses(key, field));
}

function metadataCauses(object: KubeObject, kind: FakeKind): Cause[] {
  const metadata = object.metadata ?? {};
  return [
    ...nameCauses(metadata.name, 'metadata.name', DNS1123_SUBDOMAIN, 253),
    ...labelCauses(metadata.labels, 'metadata.labels'),
    ...annotationCauses(metadata.annotations, 'metadata.annotations'),
    ...(kind.namespaced ? nameCauses(metadata.namespace, 'metadata.namespace', DNS1123_LABEL, 63) : []),
  ];
}

function podSpecCauses(spec: KubeObject | undefined, field: string, restartPolicies: string[]): Cause[] {
  if (!spec) return [{ field, message: 'Required value' }];
  const causes: Cause[] = [];
  const containers: KubeObject[] = spec.containers ?? [];
  if (containers.length === 0) causes.push({ field: `${field}.containers`, message: 'Required value' });
  const seen = new Set<string>();
  containers.forEach((c, i) => {
    causes.push(...nameCauses(c.name, `${field}.containers[${i}].name`, DNS1123_LABEL, 63));
    if (seen.has(c.name))
      causes.push({ field: `${field}.containers[${i}].name`, message: `Duplicate value: "${c.name}"` });
    seen.add(c.name);
    if (!c.image) causes.push({ field: `${field}.containers[${i}].image`, message: 'Required value' });
    else if (typeof c.image === 'string' && c.image.trim() !== c.image) {
      causes.push({
        field: `${field}.containers[${i}].image`,
        message: `Invalid value: "${c.image}": must not have leading or trailing whitespace`,
      });
    }
    for (const [j, e] of (c.env ?? []).entries()) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref && (!ref.key || !ref.name)) {
        causes.push({
          field: `${field}.containers[${i}].env[${j}].valueFrom.secretKeyRef`,
          message: 'Required value: name and key',
        });
      }
    }
  });
  if (!restartPolicies.includes(spec.restartPolicy)) {
    causes.push({
      field: `${field}.restartPolicy`,
      message: `Unsupported value: "${spec.restartPolicy}": supported values: ${restartPolicies.map((p) => `"${p}"`).join(', ')}`,
      reason: 'FieldValueNotSupported',
    });
  }
  return causes;
}

function matchesMatchLabels(selector: KubeObject | undefined, labels: Record<string, string> | undefined): boolean {
  const wanted = selector?.matchLabels ?? {};
  return Object.entries(wanted).every(([k, v]) => labels?.[k] === v);
}

function podTemplateDefaults(template: KubeObject | undefined, restartPolicy?: string): void {
  const spec = template?.spec;
  if (!spec) return;
  if (restartPolicy) spec.restartPolicy ??= restartPolicy;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  for (const c of spec.containers ?? []) {
    const tag = typeof c.image === 'string' ? c.image.split('/').pop()?.split(':')[1] : undefined;
    c.imagePullPolicy ??= !tag || tag === 'latest' ? 'Always' : 'IfNotPresent';
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
  }
}

function immutableCauses(object: KubeObject, old: KubeObject | undefined, paths: string[]): Cause[] {
  if (!old) return [];
  return paths
    .filter((path) => {
      const read = (o: KubeObject) => path.split('.').reduce<KubeObject | undefined>((at, key) => at?.[key], o);
      return !isDeepStrictEqual(read(object), read(old));
    })
    .map((path) => ({ field: path, message: 'Invalid value: field is immutable' }));
}

/** The kinds the fake serves unless told otherwise. */
export function builtInKinds(): FakeKind[] {
  return [
    {
      kind: 'Deployment',
      group: 'apps',
      version: 'v1',
      plural: 'deployments',
      namespaced: true,
      generation: true,
      statusSubresource: true,
      model: async () => (await import('kubernetes-models/apps/v1/Deployment')).Deployment,
      defaults: (o) => {
        o.spec ??= {};
        const spec = o.spec;
        spec.replicas ??= 1;
        spec.revisionHistoryLimit ??= 10;
        spec.progressDeadlineSeconds ??= 600;
        spec.strategy ??= { type: 'RollingUpdate' };
        if (spec.strategy.type === 'RollingUpdate')
          spec.strategy.rollingUpdate ??= { maxUnavailable: '25%', maxSurge: '25%' };
        podTemplateDefaults(spec.template, 'Always');
      },
      validate: (o, old) => {
        const spec = o.spec ?? {};
        const causes = [
          ...labelCauses(spec.template?.metadata?.labels, 'spec.template.metadata.labels'),
          ...podSpecCauses(spec.template?.spec, 'spec.template.spec', ['Always']),
          ...immutableCauses(o, old, ['spec.selector']),
        ];
        const selector = spec.selector;
        if (
          !selector ||
          (Object.keys(selector.matchLabels ?? {}).length === 0 && !(selector.matchExpressions ?? []).length)
        ) {
          causes.push({ field: 'spec.selector', message: 'Required value' });
        } else if (!matchesMatchLabels(selector, spec.template?.metadata?.labels)) {
          causes.push({
            field: 'spec.template.metadata.labels',
            message: 'Invalid value: `selector` does not match template `labels`',
          });
        }
        if (typeof spec.replicas === 'number' && spec.replicas < 0) {
          causes.push({ field: 'spec.replicas', message: 'Invalid value: must be greater than or equal to 0' });
        }
        return causes;
      },
    },
    {
      kind: 'Job',
      group: 'batch',
      version: 'v1',
      plural: 'jobs',
      namespaced: true,
      generation: true,
      statusSubresource: true,
      model: async () => (await import('kubernetes-models/batch/v1/Job')).Job,
      defaults: (o) => {
        o.spec ??= {};
        const spec = o.spec;
        spec.backoffLimit ??= 6;
        spec.completions ??= 1;
        spec.parallelism ??= 1;
        spec.completionMode ??= 'NonIndexed';
        spec.suspend ??= false;
        // The API server generates the selector from the Job's uid and labels the pods with it.
        if (!spec.manualSelector && !spec.selector && o.metadata?.uid) {
          spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': o.metadata.uid } };
          spec.template ??= {};
          const template = spec.template;
          template.metadata ??= {};
          template.metadata.labels = {
            ...template.metadata.labels,
            'batch.kubernetes.io/controller-uid': o.metadata.uid,
            'batch.kubernetes.io/job-name': o.metadata.name,
            'controller-uid': o.metadata.uid,
            'job-name': o.metadata.name,
          };
        }
        podTemplateDefaults(spec.template);
      },
      validate: (o, old) => {
        const spec = o.spec ?? {};
        const causes = [
          ...labelCauses(spec.template?.metadata?.labels, 'spec.template.metadata.labels'),
          ...podSpecCauses(spec.template?.spec, 'spec.template.spec', ['OnFailure', 'Never']),
          ...immutableCauses(o, old, ['spec.selector', 'spec.template', 'spec.completions']),
        ];
        for (const field of ['backoffLimit', 'activeDeadlineSeconds', 'parallelism', 'completions'] as const) {
          if (typeof spec[field] === 'number' && spec[field] < 0) {
            causes.push({ field: `spec.${field}`, message: 'Invalid value: must be greater than or equal to 0' });
          }
        }
        return causes;
      },
    },
    {
      kind: 'Secret',
      group: '',
      version: 'v1',
      plural: 'secrets',
      namespaced: true,
      generation: false,
      statusSubresource: false,
      model: async () => (await import('kubernetes-models/v1/Secret')).Secret,
      defaults: (o) => {
        o.type ??= 'Opaque';
        // stringData is write-only: the API server folds it into data.
        if (o.stringData) {
          o.data = { ...o.data };
          for (const [k, v] of Object.entries(o.stringData)) o.data[k] = Buffer.from(String(v)).toString('base64');
          delete o.stringData;
        }
      },
      validate: (o, old) => [
        ...Object.keys({ ...o.data, ...o.stringData }).flatMap((key) =>
          key.length > 253 || !SECRET_KEY.test(key)
            ? [
                {
                  field: `data[${key}]`,
                  message: `Invalid value: "${key}": a valid config key must consist of alphanumeric characters, '-', '_' or '.'`,
                },
              ]
            : [],
        ),
        ...immutableCauses(o, old, ['type']),
      ],
    },
    {
      kind: 'ConfigMap',
      group: '',
      version: 'v1',
      plural: 'configmaps',
      namespaced: true,
      generation: false,
      statusSubresource: false,
      model: async () => (await import('kubernetes-models/v1/ConfigMap')).ConfigMap,
    },
    {
      kind: 'Pod',
      group: '',
      version: 'v1',
      plural: 'pods',
      namespaced: true,
      generation: false,
      statusSubresource: true,
      model: async () => (await import('kubernetes-models/v1/Pod')).Pod,
      defaults: (o) => podTemplateDefaults(o, 'Always'),
      validate: (o) => podSpecCauses(o.spec, 'spec', ['Always', 'OnFailure', 'Never']),
    },
    {
      kind: 'Event',
      group: '',
      version: 'v1',
      plural: 'events',
      namespaced: true,
      generation: false,
      statusSubresource: false,
      // The Event class types its constructor argument more narrowly than the other models.
      model: async () =>
        (await import('kubernetes-models/v1/Event')).Event as unknown as new (
          data: KubeObject,
        ) => { validate(): void },
      defaults: (o) => {
        o.type ??= 'Normal';
        o.count ??= 1;
        o.source ??= {};
      },
      validate: (o) =>
        o.involvedObject?.namespace !== undefined && o.involvedObject.namespace !== o.metadata?.namespace
          ? [{ field: 'involvedObject.namespace', message: 'Invalid value: does not match event.namespace' }]
          : [],
    },
  ];
}

class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: KubeObject,
  ) {
    super(message);
  }
  body(): KubeObject {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

const qualified = (k: FakeKind) => (k.group ? `${k.plural}.${k.group}` : k.plural);
const groupOf = (k: FakeKind) => (k.group ? { group: k.group } : {});
const apiVersionOf = (k: FakeKind) => (k.group ? `${k.group}/${k.version}` : k.version);

const notFound = (k: FakeKind, name: string) =>
  new StatusError(404, 'NotFound', `${qualified(k)} "${name}" not found`, { name, ...groupOf(k), kind: k.plural });
const conflict = (k: FakeKind, name: string) =>
  new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(k)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, ...groupOf(k), kind: k.plural },
  );
const invalid = (k: FakeKind, name: string, causes: Cause[]) =>
  new StatusError(
    422,
    'Invalid',
    `${k.kind}${k.group ? `.${k.group}` : ''} "${name}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`,
    {
      name,
      ...groupOf(k),
      kind: k.kind,
      causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field })),
    },
  );
const badRequest = (message: string) => new StatusError(400, 'BadRequest', message);

// RFC 7386: objects merge key by key, null deletes, anything else (arrays included) replaces.
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: KubeObject = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

// RFC 6902.
function jsonPatch(document: KubeObject, operations: unknown): KubeObject {
  if (!Array.isArray(operations)) throw badRequest('json patch must be an array of operations');
  let doc: unknown = structuredClone(document);
  const parse = (pointer: string) => {
    if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/'))) {
      throw badRequest(`invalid JSON pointer "${pointer}"`);
    }
    return pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  };
  const parentOf = (tokens: string[]) => {
    let at = doc as KubeObject;
    for (const token of tokens.slice(0, -1)) {
      at = at?.[token];
      if (at === undefined || at === null || typeof at !== 'object')
        throw badRequest(`doc is missing path: /${tokens.join('/')}`);
    }
    return at;
  };
  const read = (tokens: string[]) => tokens.reduce<unknown>((at, t) => (at as KubeObject | undefined)?.[t], doc);
  const remove = (tokens: string[]) => {
    const parent = parentOf(tokens);
    const last = tokens[tokens.length - 1];
    if (!(last in parent)) throw badRequest(`unable to remove nonexistent key: ${last}`);
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  };
  const add = (tokens: string[], value: unknown, replace: boolean) => {
    if (tokens.length === 0) {
      doc = structuredClone(value);
      return;
    }
    const parent = parentOf(tokens);
    const last = tokens[tokens.length - 1];
    if (replace && !(last in parent))
      throw badRequest(`replace operation does not apply: doc is missing key: /${tokens.join('/')}`);
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length)
        throw badRequest(`invalid array index ${last}`);
      parent.splice(index, replace ? 1 : 0, structuredClone(value));
    } else parent[last] = structuredClone(value);
  };
  for (const op of operations as KubeObject[]) {
    const path = parse(op.path);
    switch (op.op) {
      case 'add':
        add(path, op.value, false);
        break;
      case 'replace':
        add(path, op.value, true);
        break;
      case 'remove':
        remove(path);
        break;
      case 'test':
        if (!isDeepStrictEqual(read(path), op.value))
          throw new StatusError(422, 'Invalid', `testing value ${op.path} failed`);
        break;
      case 'move':
      case 'copy': {
        const from = parse(op.from);
        const value = read(from);
        if (value === undefined) throw badRequest(`${op.op} from nonexistent path ${op.from}`);
        if (op.op === 'move') remove(from);
        add(path, value, false);
        break;
      }
      default:
        throw badRequest(`unexpected json patch operation "${op.op}"`);
    }
  }
  return doc as KubeObject;
}

/**
 * Kubernetes label selectors: `a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x,y)`,
 * comma-joined. Parsed and checked as a whole first: the API server answers 400 to a selector
 * with a bad key or value even when nothing would match.
 */
export function parseLabelSelector(selector: string): (labels: Record<string, string> | undefined) => boolean {
  const requirements: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      requirements.push(current);
      current = '';
    } else current += ch;
  }
  requirements.push(current);
  const checkKey = (key: string) => {
    if (qualifiedNameCauses(key, 'key').length > 0)
      throw badRequest(`unable to parse requirement: invalid label key "${key}"`);
    return key;
  };
  const checkValue = (value: string) => {
    if (value !== '' && (value.length > 63 || !QUALIFIED_NAME.test(value))) {
      throw badRequest(`unable to parse requirement: invalid label value: "${value}"`);
    }
    return value;
  };
  const tests = requirements
    .map((r) => r.trim())
    .filter((r) => r !== '')
    .map((r): ((labels: Record<string, string>) => boolean) => {
      const set = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(r);
      if (set) {
        const key = checkKey(set[1]);
        const values = set[3].split(',').map((v) => checkValue(v.trim()));
        return (labels) => (key in labels && values.includes(labels[key])) === (set[2] === 'in');
      }
      const inequality = /^([^!=]+)!=(.*)$/.exec(r);
      if (inequality) {
        const [key, value] = [checkKey(inequality[1].trim()), checkValue(inequality[2].trim())];
        return (labels) => labels[key] !== value;
      }
      const equality = /^([^!=]+)==?(.*)$/.exec(r);
      if (equality) {
        const [key, value] = [checkKey(equality[1].trim()), checkValue(equality[2].trim())];
        return (labels) => labels[key] === value;
      }
      if (r.startsWith('!')) {
        const key = checkKey(r.slice(1).trim());
        return (labels) => !(key in labels);
      }
      const key = checkKey(r);
      return (labels) => key in labels;
    });
  return (labels = {}) => tests.every((t) => t(labels));
}

export function matchesLabelSelector(selector: string, labels: Record<string, string> = {}): boolean {
  return parseLabelSelector(selector)(labels);
}

function matchesFieldSelector(selector: string, object: KubeObject): boolean {
  return selector
    .split(',')
    .filter((r) => r.trim() !== '')
    .every((r) => {
      const m = /^([^!=]+)(!=|==|=)(.*)$/.exec(r.trim());
      if (!m) throw badRequest(`invalid field selector: "${r}"`);
      const value = m[1].split('.').reduce<KubeObject | undefined>((at, key) => at?.[key], object);
      const equal = String(value ?? '') === m[3];
      return m[2] === '!=' ? !equal : equal;
    });
}

interface Route {
  kind: FakeKind;
  namespace?: string;
  name?: string;
  subresource?: string;
}

type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

interface Watcher {
  kind: FakeKind;
  namespace?: string;
  matches: (object: KubeObject) => boolean;
  send: (type: WatchType, object: KubeObject) => void;
  end: () => void;
}

interface LogLine {
  time: Date;
  text: string;
}

interface Follower {
  namespace: string;
  pod: string;
  container: string;
  /** Lines appended together, written together (one chunk, as the kubelet flushes). */
  write: (lines: LogLine[]) => void;
  end: () => void;
}

/** RFC 3339 with nanoseconds, as the kubelet stamps log lines. */
const nanoTime = (time: Date) => time.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

/** The container a log or exec request means: the named one, else the pod's only one. */
function containerOf(pod: KubeObject, wanted: string | null): string {
  const names: string[] = (pod.spec?.containers ?? []).map((c: KubeObject) => c.name);
  if (wanted) {
    if (!names.includes(wanted)) throw badRequest(`container ${wanted} is not valid for pod ${pod.metadata.name}`);
    return wanted;
  }
  if (names.length !== 1)
    throw badRequest(
      `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]`,
    );
  return names[0];
}

const isTrue = (value: string | null) => value === 'true' || value === '1';

/**
 * Starts the fake on 127.0.0.1 at a free port. `token`, when given, is required as a bearer token
 * (401 without it), as a real API server would.
 */
export async function startFakeKubernetes(
  options: { token?: string; kinds?: FakeKind[] } = {},
): Promise<FakeKubernetes> {
  const kinds = new Map<string, FakeKind>();
  const models = new Map<string, new (data: KubeObject) => { validate(): void }>();
  const store = new Map<string, KubeObject>();
  const requests: FakeKubernetesRequest[] = [];
  const hooks: { match: { method: string; resource: string; name?: string }; change: () => void }[] = [];
  let resourceVersion = 1000;
  const watchers = new Set<Watcher>();
  const history: { kind: FakeKind; type: WatchType; object: KubeObject; old?: KubeObject }[] = [];
  const logs = new Map<string, LogLine[]>();
  const followers = new Set<Follower>();
  const metrics = new Map<string, { containers: ContainerUsage[]; window: string; time?: Date }>();
  const executables = new Map<string, string[]>();
  const execs: FakeExecSession[] = [];
  const streamChanges = new EventEmitter();
  const openStreams = () => ({ watches: watchers.size, follows: followers.size });
  const streamsChanged = () => streamChanges.emit('change');
  const logKey = (namespace: string, pod: string, container: string) => `${namespace}/${pod}/${container}`;

  /** Tells the watches a change happened; a watch filtered by selector sees an object leave or enter as DELETED or ADDED. */
  const deliver = (w: Watcher, kind: FakeKind, type: WatchType, object: KubeObject, old?: KubeObject) => {
    if (w.kind !== kind) return;
    if (w.namespace !== undefined && object.metadata?.namespace !== w.namespace) return;
    if (type === 'DELETED') {
      if (w.matches(object)) w.send('DELETED', object);
      return;
    }
    const now = w.matches(object);
    const before = old !== undefined && w.matches(old);
    if (now) w.send(before ? 'MODIFIED' : 'ADDED', object);
    else if (before) w.send('DELETED', object);
  };
  const endFollowers = (namespace: string, pod: string) => {
    for (const f of [...followers]) if (f.namespace === namespace && f.pod === pod) f.end();
  };
  /** Every write to the store goes through here so watches and log follows hear of it. */
  const put = (kind: FakeKind, key: string, object: KubeObject, old?: KubeObject) => {
    store.set(key, object);
    const type: WatchType = old ? 'MODIFIED' : 'ADDED';
    history.push({ kind, type, object, old });
    for (const w of [...watchers]) deliver(w, kind, type, object, old);
    if (kind.kind === 'Pod' && ['Succeeded', 'Failed'].includes(object.status?.phase)) {
      endFollowers(object.metadata.namespace, object.metadata.name);
    }
  };
  const drop = (kind: FakeKind, key: string): boolean => {
    const object = store.get(key);
    if (!object) return false;
    store.delete(key);
    const gone = { ...object, metadata: { ...object.metadata, resourceVersion: nextVersion() } };
    history.push({ kind, type: 'DELETED', object: gone });
    for (const w of [...watchers]) deliver(w, kind, 'DELETED', gone);
    if (kind.kind === 'Pod') {
      const { namespace, name } = object.metadata;
      endFollowers(namespace, name);
      metrics.delete(`${namespace}/${name}`);
      for (const k of [...logs.keys()]) if (k.startsWith(`${namespace}/${name}/`)) logs.delete(k);
    }
    return true;
  };

  const register = async (kind: FakeKind) => {
    kinds.set(`${kind.group}/${kind.version}/${kind.plural}`, kind);
    models.set(kind.kind, await kind.model());
  };
  for (const kind of options.kinds ?? builtInKinds()) await register(kind);

  const kindNamed = (name: string) => {
    const kind = [...kinds.values()].find((k) => k.kind === name);
    if (!kind) throw new Error(`the fake Kubernetes API serves no kind ${name}`);
    return kind;
  };
  const keyOf = (kind: FakeKind, namespace: string | undefined, name: string) =>
    `${kind.group}/${kind.plural}/${kind.namespaced ? namespace : ''}/${name}`;
  const nextVersion = () => String(++resourceVersion);

  /** Defaults, schema and API-server validation of what would be stored; throws 422 Invalid. */
  const admit = (kind: FakeKind, object: KubeObject, old?: KubeObject) => {
    kind.defaults?.(object);
    const causes = [...metadataCauses(object, kind), ...(kind.validate?.(object, old) ?? [])];
    try {
      const Model = models.get(kind.kind)!;
      new Model(object).validate();
    } catch (error) {
      causes.push({ field: '<body>', message: (error as Error).message, reason: 'FieldValueTypeInvalid' });
    }
    if (causes.length > 0) throw invalid(kind, object.metadata?.name ?? '', causes);
  };

  const withType = (kind: FakeKind, object: KubeObject): KubeObject => ({
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    ...object,
  });

  const create = (kind: FakeKind, namespace: string | undefined, body: KubeObject): KubeObject => {
    checkTypeMeta(kind, body);
    const object = withType(kind, structuredClone(body));
    object.metadata ??= {};
    if (kind.namespaced) {
      if (object.metadata.namespace && object.metadata.namespace !== namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      object.metadata.namespace = namespace;
    }
    if (!object.metadata.name && object.metadata.generateName) {
      object.metadata.name = `${object.metadata.generateName}${randomUUID().slice(0, 5)}`;
    }
    const name = object.metadata.name;
    if (!name)
      throw invalid(kind, '', [
        { field: 'metadata.name', message: 'Required value: name or generateName is required' },
      ]);
    if (store.has(keyOf(kind, namespace, name))) {
      throw new StatusError(409, 'AlreadyExists', `${qualified(kind)} "${name}" already exists`, {
        name,
        ...groupOf(kind),
        kind: kind.plural,
      });
    }
    for (const field of ['resourceVersion', 'deletionTimestamp', 'selfLink']) delete object.metadata[field];
    object.metadata.uid = randomUUID();
    object.metadata.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    if (kind.generation) object.metadata.generation = 1;
    else delete object.metadata.generation;
    if (kind.statusSubresource) object.status = {};
    admit(kind, object);
    object.metadata.resourceVersion = nextVersion();
    put(kind, keyOf(kind, namespace, name), object);
    return object;
  };

  const checkTypeMeta = (kind: FakeKind, body: KubeObject) => {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw badRequest('the body of the request is not an object');
    if (body.kind !== undefined && body.kind !== kind.kind) {
      throw badRequest(
        `the API version in the data (${body.apiVersion}) does not match the expected kind ${kind.kind}`,
      );
    }
    if (body.apiVersion !== undefined && body.apiVersion !== apiVersionOf(kind)) {
      throw badRequest(
        `the API version in the data (${body.apiVersion}) does not match the expected API version (${apiVersionOf(kind)})`,
      );
    }
  };

  /** PUT and PATCH end here: `next` is the whole object the client wants stored. */
  const update = (kind: FakeKind, namespace: string | undefined, name: string, next: KubeObject): KubeObject => {
    const key = keyOf(kind, namespace, name);
    const old = store.get(key);
    if (!old) throw notFound(kind, name);
    checkTypeMeta(kind, next);
    const object = withType(kind, structuredClone(next));
    object.metadata ??= {};
    if (object.metadata.name !== undefined && object.metadata.name !== name) {
      throw badRequest(`the name of the object (${object.metadata.name}) does not match the name on the URL (${name})`);
    }
    if (object.metadata.resourceVersion && object.metadata.resourceVersion !== old.metadata.resourceVersion) {
      throw conflict(kind, name);
    }
    if (object.metadata.uid && object.metadata.uid !== old.metadata.uid) {
      throw conflict(kind, name);
    }
    object.metadata = {
      ...object.metadata,
      name,
      ...(kind.namespaced ? { namespace } : {}),
      uid: old.metadata.uid,
      creationTimestamp: old.metadata.creationTimestamp,
      resourceVersion: old.metadata.resourceVersion,
    };
    if (kind.generation) object.metadata.generation = old.metadata.generation;
    else delete object.metadata.generation;
    if (kind.statusSubresource) object.status = structuredClone(old.status);
    admit(kind, object, old);
    const changedOutsideMetadata = !isDeepStrictEqual(
      { ...object, metadata: undefined, status: undefined },
      { ...old, metadata: undefined, status: undefined },
    );
    if (isDeepStrictEqual(object, old)) return old;
    if (kind.generation && changedOutsideMetadata) object.metadata.generation = old.metadata.generation + 1;
    object.metadata.resourceVersion = nextVersion();
    put(kind, key, object, old);
    return object;
  };

  const listOf = (kind: FakeKind, namespace: string | undefined, query: URLSearchParams) => {
    const labelSelector = query.get('labelSelector') ?? '';
    const fieldSelector = query.get('fieldSelector') ?? '';
    const prefix = `${kind.group}/${kind.plural}/${namespace ?? ''}`;
    const matchesLabels = parseLabelSelector(labelSelector);
    const items = [...store.entries()]
      .filter(([key]) =>
        namespace === undefined ? key.startsWith(`${kind.group}/${kind.plural}/`) : key.startsWith(`${prefix}/`),
      )
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, object]) => object)
      .filter((o) => matchesLabels(o.metadata.labels))
      .filter((o) => matchesFieldSelector(fieldSelector, o))
      // Lists carry their items without apiVersion and kind, as the API server does.
      .map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
    return {
      apiVersion: apiVersionOf(kind),
      kind: `${kind.kind}List`,
      metadata: { resourceVersion: String(resourceVersion) },
      items,
    };
  };

  const route = (path: string): Route | undefined => {
    const m =
      /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))(?:\/namespaces\/([^/]+))?\/([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(
        path,
      );
    if (!m) return undefined;
    const group = m[1] ? '' : m[2];
    const version = m[1] ?? m[3];
    const kind = kinds.get(`${group}/${version}/${m[5]}`);
    if (!kind) return undefined;
    if (!kind.namespaced && m[4]) return undefined;
    return {
      kind,
      namespace: m[4] ? decodeURIComponent(m[4]) : undefined,
      name: m[6] ? decodeURIComponent(m[6]) : undefined,
      subresource: m[7],
    };
  };

  const handle = (
    method: string,
    r: Route,
    query: URLSearchParams,
    contentType: string,
    body: unknown,
  ): [number, unknown] => {
    const { kind, namespace, name } = r;
    if (kind.namespaced && name !== undefined && namespace === undefined) throw notFoundPath();
    if (r.subresource !== undefined) throw notFoundPath();
    if (name === undefined) {
      if (method === 'GET') return [200, listOf(kind, namespace, query)];
      if (method === 'POST' && (namespace !== undefined || !kind.namespaced))
        return [201, create(kind, namespace, body as KubeObject)];
      throw methodNotAllowed();
    }
    const key = keyOf(kind, namespace, name);
    switch (method) {
      case 'GET': {
        const object = store.get(key);
        if (!object) throw notFound(kind, name);
        return [200, object];
      }
      case 'PUT':
        return [200, update(kind, namespace, name, body as KubeObject)];
      case 'PATCH': {
        const old = store.get(key);
        if (!old) throw notFound(kind, name);
        let next: KubeObject;
        if (contentType === 'application/merge-patch+json') {
          if (!body || typeof body !== 'object' || Array.isArray(body))
            throw badRequest('merge patch must be a JSON object');
          next = mergePatch(structuredClone(old), body) as KubeObject;
        } else if (contentType === 'application/json-patch+json') {
          next = jsonPatch(old, body);
        } else {
          throw new StatusError(
            415,
            'UnsupportedMediaType',
            `the fake Kubernetes API applies application/merge-patch+json and application/json-patch+json, not ${contentType || 'a body without a content type'}`,
          );
        }
        return [200, update(kind, namespace, name, next)];
      }
      case 'DELETE': {
        const object = store.get(key);
        if (!object) throw notFound(kind, name);
        drop(kind, key);
        // Deployments, Jobs and Secrets answer a Success Status naming the resource, not the object.
        return [
          200,
          {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Success',
            details: { name, ...groupOf(kind), kind: kind.plural, uid: object.metadata.uid },
          },
        ];
      }
      default:
        throw methodNotAllowed();
    }
  };

  /** GET ...?watch=true: newline-delimited {type, object}; from a resourceVersion replays what came after it, else starts with ADDED for what exists. */
  const watch = (r: Route, query: URLSearchParams, res: ServerResponse) => {
    const matchesLabels = parseLabelSelector(query.get('labelSelector') ?? '');
    const fieldSelector = query.get('fieldSelector') ?? '';
    matchesFieldSelector(fieldSelector, {});
    const from = query.get('resourceVersion') ?? '';
    const watcher: Watcher = {
      kind: r.kind,
      namespace: r.namespace,
      matches: (o) => matchesLabels(o.metadata?.labels) && matchesFieldSelector(fieldSelector, o),
      send: (type, object) =>
        res.write(`${JSON.stringify({ type, object: withType(r.kind, structuredClone(object)) })}\n`),
      end: () => res.end(),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    // The headers go at once: a client waits for them before it reads any event.
    res.flushHeaders();
    if (from === '' || from === '0') {
      for (const object of listOf(r.kind, r.namespace, query).items) watcher.send('ADDED', object);
    } else {
      for (const h of history) {
        if (Number(h.object.metadata.resourceVersion) > Number(from)) deliver(watcher, h.kind, h.type, h.object, h.old);
      }
    }
    watchers.add(watcher);
    streamsChanged();
    const seconds = Number(query.get('timeoutSeconds') ?? 0);
    const timer = seconds > 0 ? setTimeout(() => res.end(), seconds * 1000) : undefined;
    res.on('close', () => {
      clearTimeout(timer);
      watchers.delete(watcher);
      streamsChanged();
    });
  };

  /** GET .../pods/{name}/log: the container's lines as text; `follow` keeps the response open while the pod runs. */
  const podLog = (r: Route, query: URLSearchParams, res: ServerResponse) => {
    const namespace = r.namespace!;
    const name = r.name!;
    const pod = store.get(keyOf(r.kind, namespace, name));
    if (!pod) throw notFound(r.kind, name);
    const container = containerOf(pod, query.get('container'));
    const phase = pod.status?.phase;
    if (phase === undefined || phase === 'Pending') {
      throw badRequest(`container "${container}" in pod "${name}" is waiting to start: ContainerCreating`);
    }
    if (isTrue(query.get('previous'))) {
      throw badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
    }
    let lines = logs.get(logKey(namespace, name, container)) ?? [];
    const sinceSeconds = query.get('sinceSeconds');
    const sinceTime = query.get('sinceTime');
    if (sinceSeconds && sinceTime) throw badRequest('at most one of sinceTime or sinceSeconds may be specified');
    const since = sinceSeconds
      ? Date.now() - Number(sinceSeconds) * 1000
      : sinceTime
        ? Date.parse(sinceTime)
        : undefined;
    if (since !== undefined) lines = lines.filter((l) => l.time.getTime() >= since);
    const tailLines = query.get('tailLines');
    if (tailLines !== null && tailLines !== '') {
      const n = Number(tailLines);
      if (!Number.isInteger(n) || n < 0) throw badRequest(`invalid value for tailLines: ${tailLines}`);
      lines = n === 0 ? [] : lines.slice(-n);
    }
    const timestamps = isTrue(query.get('timestamps'));
    let budget = query.get('limitBytes') ? Number(query.get('limitBytes')) : Number.POSITIVE_INFINITY;
    const format = (l: LogLine) => {
      const text = `${timestamps ? `${nanoTime(l.time)} ` : ''}${l.text}\n`;
      const bytes = Buffer.from(text);
      const out = bytes.length <= budget ? bytes : bytes.subarray(0, budget);
      budget -= out.length;
      return out;
    };
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    // The backlog goes out in one write, as a kubelet streams a file it already has.
    if (lines.length > 0) res.write(Buffer.concat(lines.map(format)));
    if (!isTrue(query.get('follow')) || phase !== 'Running' || budget <= 0) {
      res.end();
      return;
    }
    const follower: Follower = {
      namespace,
      pod: name,
      container,
      write: (ls) => {
        res.write(Buffer.concat(ls.map(format)));
        if (budget <= 0) res.end();
      },
      end: () => res.end(),
    };
    followers.add(follower);
    streamsChanged();
    res.on('close', () => {
      followers.delete(follower);
      streamsChanged();
    });
  };

  /** metrics.k8s.io/v1beta1 pods: PodMetrics of the pods that exist and have usage set. */
  const podMetrics = (namespace: string | undefined, name: string | undefined, query: URLSearchParams): unknown => {
    const matchesLabels = parseLabelSelector(query.get('labelSelector') ?? '');
    const items = [...metrics.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([key, m]) => {
        const [ns, podName] = key.split('/');
        const pod = store.get(keyOf(kindNamed('Pod'), ns, podName));
        if (!pod || (namespace !== undefined && ns !== namespace) || (name !== undefined && podName !== name))
          return [];
        if (!matchesLabels(pod.metadata.labels)) return [];
        const time = (m.time ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
        return [
          {
            metadata: { name: podName, namespace: ns, creationTimestamp: time, labels: pod.metadata.labels ?? {} },
            timestamp: time,
            window: m.window,
            containers: structuredClone(m.containers),
          },
        ];
      });
    if (name !== undefined) {
      if (items.length === 0)
        throw new StatusError(404, 'NotFound', `podmetrics.metrics.k8s.io "${name}" not found`, {
          name,
          group: 'metrics.k8s.io',
          kind: 'pods',
        });
      return { kind: 'PodMetrics', apiVersion: 'metrics.k8s.io/v1beta1', ...items[0] };
    }
    return { kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {}, items };
  };

  /** GET .../pods/{name}/exec with Upgrade: websocket; answers an HTTP Status before upgrading when it refuses. */
  const exec = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const entry: FakeKubernetesRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: 0,
    };
    try {
      if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
        throw new StatusError(401, 'Unauthorized', 'Unauthorized');
      }
      const r = route(url.pathname);
      if (r?.kind.kind !== 'Pod' || r.subresource !== 'exec' || !r.namespace || !r.name) throw notFoundPath();
      Object.assign(entry, { resource: 'pods', namespace: r.namespace, name: r.name, subresource: 'exec' });
      const pod = store.get(keyOf(r.kind, r.namespace, r.name));
      if (!pod) throw notFound(r.kind, r.name);
      const container = containerOf(pod, url.searchParams.get('container'));
      const command = url.searchParams.getAll('command');
      if (command.length === 0) throw badRequest('you must specify at least 1 command');
      if (pod.status?.phase !== 'Running') {
        throw badRequest(`unable to upgrade connection: container not found ("${container}")`);
      }
      if (!offeredProtocols(req).includes(EXEC_PROTOCOL)) {
        throw badRequest(`the fake Kubernetes API speaks ${EXEC_PROTOCOL} only`);
      }
      if (!acceptWebSocket(req, socket, EXEC_PROTOCOL)) throw badRequest('exec needs a WebSocket upgrade');
      entry.status = 101;
      requests.push(entry);
      const session: FakeExecSession = {
        namespace: r.namespace,
        pod: r.name,
        container,
        command,
        tty: isTrue(url.searchParams.get('tty')),
        protocol: EXEC_PROTOCOL,
        stdin: '',
        resizes: [],
        closed: false,
      };
      execs.push(session);
      let input: (data: Buffer) => void = () => {};
      if (head.length > 0) socket.unshift(head);
      const ws = new ServerWebSocket(
        socket,
        (data) => input(data),
        () => {
          session.closed = true;
        },
      );
      input = runExecSession(ws, session, executables.get(`${r.namespace}/${r.name}`) ?? ['bash', 'sh', 'echo']);
    } catch (error) {
      const failure =
        error instanceof StatusError
          ? error
          : new StatusError(500, 'InternalError', `fake Kubernetes API: ${String(error)}`);
      entry.status = failure.code;
      requests.push(entry);
      const body = JSON.stringify(failure.body());
      socket.end(
        `HTTP/1.1 ${failure.code} ${STATUS_CODES[failure.code] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
  };

  const notFoundPath = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  const methodNotAllowed = () =>
    new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim();
      const text = Buffer.concat(chunks).toString('utf8');
      const r = route(url.pathname);
      const metricsPath = /^\/apis\/metrics\.k8s\.io\/v1beta1(?:\/namespaces\/([^/]+))?\/pods(?:\/([^/]+))?$/.exec(
        url.pathname,
      );
      const entry: FakeKubernetesRequest = {
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        contentType: contentType || undefined,
        resource: metricsPath ? 'pods.metrics.k8s.io' : r?.kind.plural,
        namespace: metricsPath ? metricsPath[1] : r?.namespace,
        name: metricsPath ? metricsPath[2] : r?.name,
        ...(r?.subresource ? { subresource: r.subresource } : {}),
        status: 0,
      };
      let status: number;
      let answer: unknown;
      try {
        if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
          throw new StatusError(401, 'Unauthorized', 'Unauthorized');
        }
        if (text !== '') {
          try {
            entry.body = JSON.parse(text);
          } catch {
            throw badRequest('the body of the request was not valid JSON');
          }
        }
        if (metricsPath && method === 'GET') {
          [status, answer] = [200, podMetrics(metricsPath[1], metricsPath[2], url.searchParams)];
          entry.status = status;
          requests.push(entry);
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer));
          return;
        }
        if (!r) throw notFoundPath();
        const streaming =
          method === 'GET' &&
          ((r.kind.kind === 'Pod' && r.subresource === 'log' && r.name !== undefined && r.namespace !== undefined) ||
            (r.name === undefined && isTrue(url.searchParams.get('watch'))));
        if (streaming) {
          // The answer streams: the request is logged once the stream has been accepted.
          if (r.subresource === 'log') podLog(r, url.searchParams, res);
          else watch(r, url.searchParams, res);
          entry.status = 200;
          requests.push(entry);
          return;
        }
        const hook = hooks.findIndex(
          (h) =>
            h.match.method === method &&
            h.match.resource === r.kind.plural &&
            (h.match.name === undefined || h.match.name === r.name),
        );
        if (hook >= 0) hooks.splice(hook, 1)[0].change();
        // DeleteOptions (propagationPolicy) arrive in the query or the body; both stay in the request log for tests to read.
        [status, answer] = handle(method, r, url.searchParams, contentType, entry.body);
      } catch (error) {
        const failure =
          error instanceof StatusError
            ? error
            : new StatusError(500, 'InternalError', `fake Kubernetes API: ${String(error)}`);
        status = failure.code;
        answer = failure.body();
      }
      entry.status = status;
      requests.push(entry);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  server.on('upgrade', exec);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    kubeconfig(namespace = 'default') {
      return [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '  - name: fake',
        '    cluster:',
        `      server: ${url}`,
        '      insecure-skip-tls-verify: true',
        'users:',
        '  - name: fake',
        `    user: {${options.token ? ` token: ${options.token} ` : ''}}`,
        'contexts:',
        '  - name: fake',
        '    context:',
        '      cluster: fake',
        '      user: fake',
        `      namespace: ${namespace}`,
        'current-context: fake',
        '',
      ].join('\n');
    },
    objects(kindName, namespace) {
      const kind = kindNamed(kindName);
      return listOf(kind, namespace, new URLSearchParams()).items.map((o) => structuredClone(withType(kind, o)));
    },
    get(kindName, namespace, name) {
      const object = store.get(keyOf(kindNamed(kindName), namespace, name));
      return object && structuredClone(object);
    },
    seed(object) {
      const kind = kindNamed(object.kind);
      return structuredClone(create(kind, object.metadata?.namespace, object));
    },
    modify(kindName, namespace, name, change) {
      const kind = kindNamed(kindName);
      const current = store.get(keyOf(kind, namespace, name));
      if (!current) throw notFound(kind, name);
      const next = structuredClone(current);
      change(next);
      return structuredClone(update(kind, namespace, name, next));
    },
    setStatus(kindName, namespace, name, status) {
      const kind = kindNamed(kindName);
      const key = keyOf(kind, namespace, name);
      const current = store.get(key);
      if (!current) throw notFound(kind, name);
      const next = { ...current, status: structuredClone(status), metadata: { ...current.metadata } };
      next.metadata.resourceVersion = nextVersion();
      put(kind, key, next, current);
      return structuredClone(next);
    },
    remove(kindName, namespace, name) {
      const kind = kindNamed(kindName);
      return drop(kind, keyOf(kind, namespace, name));
    },
    beforeNext(match, change) {
      hooks.push({ match, change });
    },
    register,
    execs,
    appendLog(namespace, podName, lines, opts = {}) {
      const pod = store.get(keyOf(kindNamed('Pod'), namespace, podName));
      if (!pod) throw new Error(`the fake Kubernetes API has no pod ${namespace}/${podName}`);
      const container = opts.container ?? pod.spec?.containers?.[0]?.name;
      const key = logKey(namespace, podName, container);
      const list = logs.get(key) ?? [];
      logs.set(key, list);
      const time = opts.time ?? new Date();
      const added = (typeof lines === 'string' ? [lines] : lines).map((text) => ({ time, text }));
      list.push(...added);
      for (const f of [...followers]) {
        if (f.namespace === namespace && f.pod === podName && f.container === container) f.write(added);
      }
    },
    setPodMetrics(namespace, podName, containers, opts = {}) {
      metrics.set(`${namespace}/${podName}`, {
        containers: structuredClone(containers),
        window: opts.window ?? '30s',
        time: opts.time,
      });
    },
    setExecutables(namespace, podName, names) {
      executables.set(`${namespace}/${podName}`, [...names]);
    },
    openStreams,
    endWatches() {
      for (const w of [...watchers]) w.end();
    },
    untilStreams(check) {
      return new Promise<void>((resolve) => {
        if (check(openStreams())) return resolve();
        const listener = () => {
          if (!check(openStreams())) return;
          streamChanges.off('change', listener);
          resolve();
        };
        streamChanges.on('change', listener);
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
