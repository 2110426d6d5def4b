import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Where pino writes its lines: stdout by default, pino-pretty's stream under `npm start`, a capture in tests. */
export interface LogDestination {
  write(line: string): void;
}

let destination: LogDestination | undefined;

/**
 * Where the service apps created from now on in this process log. Unset (a service started
 * alone), pino writes JSON lines to stdout; the embedded launcher hands in readable lines.
 */
export function logTo(d: LogDestination | undefined): void {
  destination = d;
}

/** Fastify's logger options for a service app; `name` tells the services of one process apart. */
export const loggerOptions = (service: string, level: string) => ({
  level,
  name: service,
  // Tokens and personal data are never logged.
  redact: [
    'req.headers.authorization',
    'req.headers.cookie',
    'req.headers["x-platform-service-token"]',
    'req.headers["cf-access-jwt-assertion"]',
  ],
  ...(destination ? { stream: destination } : {}),
});

/**
 * A URL as logged: a token a browser had to send in the query (EventSource and WebSocket cannot
 * set headers: the console's tail and terminal take ?access_token=) never reaches a log line.
 */
export const redactQueryTokens = (url: string): string =>
  url.replace(/([?&](?:access_token|token)=)[^&#]*/gi, '$1[redacted]');

/** Probes that orchestrators and the launcher's checks call every few seconds. */
const HEALTH_CHECKS = new Set(['/healthz', '/readyz']);

/**
 * One line per answered request (method, URL, status, milliseconds) in place of Fastify's two
 * ("incoming request", "request completed"). Health checks log at debug, so info shows the
 * traffic that matters. It logs through the reply's logger, so a route's own logLevel still
 * applies: the broker's relay routes write no line at info.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(req)) return;
    const level = error ? 'error' : HEALTH_CHECKS.has(req.routeOptions.url ?? '') ? 'debug' : 'info';
    // Below the logger's level (the broker's relay routes at info): no line, so nothing to build.
    const log = reply.log as FastifyReply['log'] & { isLevelEnabled?: (level: string) => boolean };
    if (log.isLevelEnabled?.(level) === false) return;
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const url = redactQueryTokens(req.url);
    const line = { method: req.method, url, statusCode: reply.statusCode, responseTime };
    const msg = `${req.method} ${url} ${reply.statusCode} ${responseTime}ms`;
    if (error) reply.log.error({ ...line, err: error }, msg);
    else reply.log[level](line, msg);
  }
}

/** The fields of the request line that its message already says: a readable log leaves them out. */
export const REQUEST_LINE_FIELDS = ['method', 'url', 'statusCode', 'responseTime'] as const;
