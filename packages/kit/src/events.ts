import type { Static, TSchema } from '@sinclair/typebox';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { publicSubject, restrictedSubject } from './bus/bus.ts';
import { underTest } from './config.ts';
import type { Db, KitTables } from './db/database.ts';
import { type EventInput, emit } from './outbox.ts';

/**
 * One event type of a service. `payload` is the data on the public subject `<service>.<type>`;
 * `personal` is the data on the restricted subject `restricted.<service>.<type>`, for what
 * carries personal data and must stay out of the public feed. An event declares one or both:
 * with both, each emit publishes the slim data publicly and the full data restrictedly.
 */
export interface EventSpec {
  description: string;
  payload?: TSchema;
  personal?: TSchema;
}

export type EventSpecs = Record<string, EventSpec>;

/** A service's declared events: the only types its emitter accepts. */
export interface EventCatalogue<E extends EventSpecs = EventSpecs> {
  service: string;
  events: E;
}

/** Declares a service's events: each type with its payload schema(s) and a description. */
export function defineEvents<const E extends EventSpecs>(service: string, events: E): EventCatalogue<E> {
  for (const [type, spec] of Object.entries(events)) {
    if (!spec.payload && !spec.personal) throw new Error(`Event ${service} ${type} declares no payload`);
  }
  return { service, events };
}

type DataOf<S extends EventSpec> = (S['payload'] extends TSchema ? { data: Static<S['payload']> } : { data?: never }) &
  (S['personal'] extends TSchema ? { personal: Static<S['personal']> } : { personal?: never });

/** One event a catalogue accepts: a declared type with the data its schemas describe. */
export type EventOf<C extends EventCatalogue> = string extends keyof C['events']
  ? AnyEvent
  : { [K in keyof C['events'] & string]: { type: K } & DataOf<C['events'][K]> }[keyof C['events'] & string];

/** Any event, as an emitter bound to no particular catalogue sees it. */
export interface AnyEvent {
  type: string;
  data?: unknown;
  personal?: unknown;
}

/**
 * Writes events into the outbox in the bound transaction, stamped with the bound service and
 * clock reading; one event or several in order.
 */
export type Emitter<C extends EventCatalogue = EventCatalogue> = (
  events: EventOf<C> | readonly EventOf<C>[],
) => Promise<void>;

let ajv: Ajv | undefined;
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** The schema's validator, compiled once (plain JSON Schema: formats and enums as the HTTP layer reads them). */
function validatorOf(schema: TSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    if (!ajv) {
      ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addFormat('month', /^\d{4}-(0[1-9]|1[0-2])$/);
    }
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

/** The JSON the bus carries (dates as strings), checked against the declared schema. */
function check(catalogue: EventCatalogue, type: string, which: 'payload' | 'personal', data: unknown) {
  const schema = catalogue.events[type]?.[which];
  if (!schema) throw new Error(`Event ${catalogue.service} ${type} declares no ${which}`);
  const wire = JSON.parse(JSON.stringify(data ?? null));
  const validate = validatorOf(schema);
  if (validate(wire)) return;
  const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
  throw new Error(`Event ${catalogue.service} ${type}: ${which} does not match its schema: ${errors.join('; ')}`);
}

/** The outbox rows of one event: public data, then personal data, as the catalogue declares. */
function rowsOf(catalogue: EventCatalogue, e: AnyEvent, validate: boolean): EventInput[] {
  const spec = catalogue.events[e.type];
  if (!spec) throw new Error(`Event type ${e.type} is not declared by ${catalogue.service}`);
  const rows: EventInput[] = [];
  if (spec.payload) {
    if (validate) check(catalogue, e.type, 'payload', e.data);
    rows.push({ type: e.type, data: e.data });
  }
  if (spec.personal) {
    if (validate) check(catalogue, e.type, 'personal', e.personal);
    rows.push({ type: e.type, data: e.personal, restricted: true });
  }
  return rows;
}

/**
 * An emitter bound to a service's catalogue, a transaction and a clock reading: the events it
 * writes are published if and only if the transaction commits. Undeclared types throw; under
 * test, so does data that does not match its schema.
 */
export function bindEmitter<C extends EventCatalogue, DB extends KitTables>(
  catalogue: C,
  trx: Db<DB>,
  now: Date,
): Emitter<C> {
  const validate = underTest();
  return async (events) => {
    const list = (Array.isArray(events) ? events : [events]) as AnyEvent[];
    await emit(
      trx,
      catalogue.service,
      list.flatMap((e) => rowsOf(catalogue, e, validate)),
      now,
    );
  };
}

/** The subjects one declared event is published on (public first), for documents and consumers. */
export function subjectsOf(catalogue: EventCatalogue, type: string): { subject: string; personal: boolean }[] {
  const spec = catalogue.events[type];
  if (!spec) return [];
  const out: { subject: string; personal: boolean }[] = [];
  if (spec.payload) out.push({ subject: publicSubject(catalogue.service, type), personal: false });
  if (spec.personal) out.push({ subject: restrictedSubject(catalogue.service, type), personal: true });
  return out;
}
