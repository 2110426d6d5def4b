import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The recorder partner on a port, speaking the contract docs/decisions.md writes down (and
 * src/clients/recorder.ts calls): bearer partner secret, POST /v1/partner/users/{user_id}/token
 * and POST /v1/partner/users/{user_id}/devices, errors as {"error", "message"}. It records every
 * call (with the authorization it got), the tokens it minted with their expiry on its clock, and
 * which user each serial is bound to. `mode` 'fail' answers 500 to everything.
 */
export async function startRecorderPartner(o: { secret: string; now?: () => Date }) {
  const now = o.now ?? (() => new Date());
  const state = {
    mode: 'ok' as 'ok' | 'fail',
    calls: [] as { method: string; path: string; authorization: string; body: unknown }[],
    tokens: new Map<string, { userId: string; expiresAt: Date }>(),
    devices: new Map<string, { userId: string; boundAt: string }>(),
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return send(400, { error: 'invalid_json', message: 'The body is not JSON' });
      }
      const path = req.url ?? '';
      state.calls.push({ method: req.method ?? '', path, authorization: req.headers.authorization ?? '', body });
      if (state.mode === 'fail') return send(500, { error: 'internal', message: 'partner down' });
      if (req.headers.authorization !== `Bearer ${o.secret}`) {
        return send(401, { error: 'invalid_client', message: 'Unknown partner credential' });
      }
      const m = path.match(/^\/v1\/partner\/users\/([^/]+)\/(token|devices)$/);
      if (req.method !== 'POST' || !m) return send(404, { error: 'not_found', message: 'No such route' });
      const userId = decodeURIComponent(m[1]);
      if (m[2] === 'token') {
        const expiresIn = body.expires_in;
        if (!Number.isInteger(expiresIn) || (expiresIn as number) < 1 || (expiresIn as number) > 86_400) {
          return send(400, { error: 'invalid_expires_in', message: 'expires_in is 1 to 86400 seconds' });
        }
        const token = `plr_${randomBytes(18).toString('base64url')}`;
        state.tokens.set(token, { userId, expiresAt: new Date(now().getTime() + (expiresIn as number) * 1000) });
        return send(200, { access_token: token, token_type: 'Bearer', expires_in: expiresIn });
      }
      const serial = body.serial_number;
      if (typeof serial !== 'string' || serial === '') {
        return send(400, { error: 'invalid_serial', message: 'serial_number is required' });
      }
      const held = state.devices.get(serial);
      if (held && held.userId !== userId) {
        return send(409, { error: 'device_bound_elsewhere', message: 'Another user holds this recorder' });
      }
      if (held) return send(200, { serial_number: serial, user_id: userId, bound_at: held.boundAt });
      const boundAt = now().toISOString();
      state.devices.set(serial, { userId, boundAt });
      return send(201, { serial_number: serial, user_id: userId, bound_at: boundAt });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type RecorderPartner = Awaited<ReturnType<typeof startRecorderPartner>>;
