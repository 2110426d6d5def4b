import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from '@sinclair/typebox';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Authenticator } from '../auth/authenticate.ts';
import { underTest } from '../config.ts';
import type { Database } from '../db/database.ts';
import { Envelope, ErrorEnvelope, type HeaderValue, header } from '../envelope.ts';
import { type ErrorDetail, isAppError, unavailable } from '../errors.ts';
import { uuidv7 } from '../ids.ts';
import { normaliseInput } from '../schemas.ts';
import { loggerOptions, OneLinePerRequest } from './logging.ts';
import { type DeclaredRouteConfig, ErrorHeader, undeclaredCodes } from './routes.ts';
import { validationDetails, validatorCompiler } from './validation.ts';

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  import('fastify').FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface ServiceAppOptions {
  service: string;
  title: string;
  description: string;
  version?: string;
  /** Readiness asks it (any service's database). */
  database: Pick<Database, 'ping'>;
  authenticator: Authenticator;
  logLevel?: string;
  /** The service's routes; registered after the kit's routes and OpenAPI set-up. */
  routes: (app: App) => Promise<void> | void;
  /**
   * Requests this handler claims (returns true) never reach Fastify: the identity service hands its
   * OAuth 2.0 endpoints to the authorization server's own request handler this way.
   */
  rawHandler?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /**
   * How callers prove who they are, as the OpenAPI document tells it (keys of SECURITY_SCHEMES).
   * Default: the platform bearer token and the local dev header. Empty: an open service.
   */
  security?: readonly SecuritySchemeName[];
  /** Serve the interactive docs at /api-docs (default on; spec 2 puts them behind SWAGGER_ON). */
  apiDocs?: boolean;
  /**
   * A declared route that answers a code it did not declare answers 500 undeclared_error_code
   * instead, so the test that provoked it fails (issue 15.1). Default: on under Vitest or NODE_ENV=test.
   */
  strictErrors?: boolean;
}

/** Whether the app answers GET /api-docs: the launcher's banner and runMain name the docs only then. */
export const servesApiDocs = (app: { hasRoute(route: { method: 'GET'; url: string }): boolean }): boolean =>
  app.hasRoute({ method: 'GET', url: '/api-docs' });

/** How a started service names its docs: /api-docs when it serves them, else its OpenAPI document. */
export function docsNote(started: { url: string; app?: unknown }): string {
  const app = started.app as Parameters<typeof servesApiDocs>[0] | undefined;
  return app && servesApiDocs(app) ? `docs ${started.url}/api-docs` : `spec ${started.url}/openapi.json`;
}

const ROUTE_TABLES = new WeakMap<object, string[]>();

/** Every route the app registered, as "METHOD /path" (Fastify's own HEAD twins left out): tests compare it with the OpenAPI document. */
export const registeredRoutes = (app: object): readonly string[] => ROUTE_TABLES.get(app) ?? [];

/** Every proof a platform service may accept, as OpenAPI security schemes. */
export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An access token of the identity service for the platform audience (typ at+jwt)',
  },
  gateway: {
    type: 'apiKey',
    in: 'header',
    name: 'Cf-Access-Jwt-Assertion',
    description: "The access gateway's JWT for this application's audience; its email is the caller",
  },
  serviceToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Platform-Service-Token',
    description: 'Another platform service, naming the person it acts for in X-Platform-On-Behalf-Of',
  },
  brokerCredential: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "A model broker credential's one-hour token, from POST /v1/oauth/token or a credential's /token route",
  },
  devPrincipal: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Dev-Principal',
    description: 'Local development only (DEV_AUTH=1): an email from the dev principals file, or service:<name>',
  },
} as const;
export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;
const ERROR_STATUSES = ['400', '401', '403', '404', '409', '413', '422', '500', '503'];

declare module 'fastify' {
  interface FastifyReply {
    /** Wrap a result in the {header, payload} envelope. */
    envelope<T, M extends object | undefined = undefined>(
      data: T,
      meta?: M,
    ): { header: HeaderValue; payload: M extends undefined ? { data: T } : { data: T; meta: M } };
    /**
     * The envelope of a cached answer, as JSON bytes: `data` (an object never changed once
     * cached) is serialized the first time it is answered, by the data schema of the route's
     * declared response for the reply's status, and its bytes reused after; only the header is
     * written per request. The same bytes `envelope(data)` would give.
     */
    envelopeCached(data: object): Buffer;
  }
}

/** The `payload.data` schema of the response a route declares for the reply's status. */
function declaredDataSchema(reply: FastifyReply): TSchema {
  const responses = reply.request.routeOptions.schema?.response as Record<string, TSchema> | undefined;
  const declared = responses?.[String(reply.statusCode)];
  const data = declared?.properties?.payload?.properties?.data as TSchema | undefined;
  if (!data) {
    throw new Error(
      `${reply.request.method} ${reply.request.routeOptions.url}: no declared envelope for ${reply.statusCode}`,
    );
  }
  return data;
}

/** Serialized cached answers, per data schema and data object (both held weakly). */
const cachedData = new WeakMap<TSchema, WeakMap<object, Buffer>>();
const PAYLOAD_END = Buffer.from('}}');

export async function createServiceApp(opts: ServiceAppOptions): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(opts.service, opts.logLevel ?? 'info'),
    logController: new OneLinePerRequest(),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : uuidv7();
    },
    ajv: { customOptions: { strict: false } },
    bodyLimit: 1024 * 1024,
    ...(opts.rawHandler
      ? {
          serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) =>
            createServer((req, res) => {
              if (!opts.rawHandler?.(req, res)) handler(req, res);
            }),
        }
      : {}),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest('principal', null);
  app.decorateReply('envelope', function (this: FastifyReply, data: unknown, meta?: object) {
    return {
      header: header(opts.service, String(this.request.id)),
      payload: meta ? { data, meta } : { data },
    } as never;
  });

  app.decorateReply('envelopeCached', function (this: FastifyReply, data: object) {
    const schema = declaredDataSchema(this);
    let bySchema = cachedData.get(schema);
    if (!bySchema) {
      bySchema = new WeakMap();
      cachedData.set(schema, bySchema);
    }
    let bytes = bySchema.get(data);
    if (!bytes) {
      const json = (this.compileSerializationSchema(schema) as (v: unknown) => string)(data);
      // Outside Node's shared pool: a small answer kept in the pool would hold its whole 8 KB slab.
      bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
      bytes.write(json);
      bySchema.set(data, bytes);
    }
    this.type('application/json; charset=utf-8');
    const head = `{"header":${JSON.stringify(header(opts.service, String(this.request.id)))},"payload":{"data":`;
    return Buffer.concat([Buffer.from(head), bytes, PAYLOAD_END]);
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    req.principal = await opts.authenticator.authenticate(req);
  });
  // After the route's own checks (401, 403, 400) and the schema (422); before the handler.
  app.addHook('preHandler', normaliseInput);

  // Every route documents the enveloped error bodies it can answer with.
  const table: string[] = [];
  ROUTE_TABLES.set(app, table);
  app.addHook('onRoute', (route) => {
    for (const m of [route.method].flat()) if (m !== 'HEAD') table.push(`${m} ${route.url}`);
    route.schema = route.schema ?? {};
    const schema = route.schema as Record<string, unknown>;
    if ((schema as { hide?: boolean }).hide) return;
    schema.response = schema.response ?? {};
    const response = schema.response as Record<string, unknown>;
    // A declared route lists exactly the statuses and codes it answers (routes.ts).
    if ((route.config as DeclaredRouteConfig | undefined)?.declaredErrors) return;
    for (const status of ERROR_STATUSES) response[status] ??= Type.Ref('ErrorEnvelope');
    // Discovery and ops routes need no proof; /v1 routes take the document-wide list.
    if (!route.url.startsWith('/v1/')) schema.security ??= [];
  });

  app.addSchema(ErrorEnvelope);
  app.addSchema(ErrorHeader);

  const strictErrors = opts.strictErrors ?? underTest();
  app.setErrorHandler((error: FastifyError, req, reply) => {
    let status = 500;
    let details: ErrorDetail[];
    if (isAppError(error)) {
      status = error.status;
      details = error.details;
    } else if (error.validation) {
      status = 422;
      details = validationDetails(error.validation as never, error.validationContext ?? 'body');
    } else if (
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      (error.statusCode === 400 && error instanceof SyntaxError)
    ) {
      status = 400;
      details = [{ code: 'malformed_json', message: 'The request body is not valid JSON' }];
    } else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      details = [{ code: 'unsupported_media_type', message: 'Send application/json' }];
    } else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      details = [{ code: 'body_too_large', message: 'The request body is too large' }];
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      details = [{ code: 'bad_request', message: error.message }];
    } else {
      req.log.error({ err: error }, 'unhandled error');
      details = [{ code: 'internal_error', message: 'Internal error' }];
    }
    const undeclared = strictErrors
      ? undeclaredCodes(req.routeOptions.config as DeclaredRouteConfig, status, details)
      : [];
    if (undeclared.length > 0) {
      const route = `${req.method} ${req.routeOptions.url}`;
      req.log.error({ undeclared, status }, 'undeclared error code');
      status = 500;
      details = [
        {
          code: 'undeclared_error_code',
          message: `${route} answered ${undeclared.join(', ')}, which it does not declare`,
        },
      ];
    }
    return reply.code(status).send({ header: header(opts.service, String(req.id)), payload: { errors: details } });
  });

  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({
      header: header(opts.service, String(req.id)),
      payload: { errors: [{ code: 'route_not_found', message: `No route ${req.method} ${req.url.split('?')[0]}` }] },
    }),
  );

  const security = opts.security ?? ['bearer', 'serviceToken', 'devPrincipal'];
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: opts.title, description: opts.description, version: opts.version ?? '1.0.0' },
      components: { securitySchemes: Object.fromEntries(security.map((n) => [n, SECURITY_SCHEMES[n]])) },
      // Any one of the service's proofs will do.
      security: security.map((n) => ({ [n]: [] })),
    },
    refResolver: { buildLocalReference: (json, _b, _f, i) => String(json.$id ?? `def-${i}`) },
  });
  const apiDocs = opts.apiDocs ?? true;
  if (apiDocs) await app.register(swaggerUi, { routePrefix: '/api-docs' });

  const Discovery = Type.Object({
    service: Type.String(),
    title: Type.String(),
    description: Type.String(),
    version: Type.String(),
    links: Type.Record(Type.String(), Type.String()),
  });
  const Status = Type.Object({ status: Type.String() });

  app.get(
    '/',
    { schema: { tags: ['ops'], summary: 'Service discovery', response: { 200: Envelope(Discovery) } } },
    async (_req, reply) =>
      reply.envelope({
        service: opts.service,
        title: opts.title,
        description: opts.description,
        version: opts.version ?? '1.0.0',
        links: {
          ...(apiDocs ? { api_docs: '/api-docs' } : {}),
          openapi_json: '/openapi.json',
          openapi_yaml: '/openapi.yaml',
          healthz: '/healthz',
          readyz: '/readyz',
        },
      }),
  );
  app.get('/openapi.json', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('application/json').send(app.swagger()),
  );
  app.get('/openapi.yaml', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('application/yaml').send(app.swagger({ yaml: true })),
  );
  app.get(
    '/healthz',
    { schema: { tags: ['ops'], summary: 'Liveness', response: { 200: Envelope(Status) } } },
    async (_req, reply) => reply.envelope({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: { tags: ['ops'], summary: 'Readiness: the database answers', response: { 200: Envelope(Status) } },
    },
    async (_req, reply) => {
      if (await opts.database.ping()) return reply.envelope({ status: 'ready' });
      throw unavailable('database_unavailable', 'The database does not answer');
    },
  );

  await app.register(async (scoped) => {
    await opts.routes(scoped as App);
  });
  return app;
}
