import type { Server, ServerResponse } from 'node:http';

/**
 * The requests a server is answering, for a graceful stop. Once `closing()` is called, an answer
 * not yet begun says `Connection: close`, and every connection left idle by a finished answer is
 * closed, so keep-alive clients do not hold the stop until their keep-alive timeout.
 */
export function trackRequests(server: Server) {
  const active = new Set<ServerResponse>();
  let closing = false;
  server.on('request', (_req, res: ServerResponse) => {
    active.add(res);
    if (closing && !res.headersSent) res.setHeader('Connection', 'close');
    res.once('close', () => {
      active.delete(res);
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  return {
    get inFlight() {
      return active.size;
    },
    closing() {
      closing = true;
      for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close');
    },
  };
}
