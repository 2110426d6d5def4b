import { PassThrough, Writable } from 'node:stream';
import type { ClusterClient, ExecSession } from './client.ts';

/** The browser's side of a terminal: a WebSocket as @fastify/websocket hands it over (ws). */
export interface BrowserSocket {
  readonly readyState: number;
  send(data: Buffer): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], binary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
}

const OPEN = 1;

/** bash when the image has it, else sh (a runtime refuses a missing executable before any output). */
export const SHELLS = [['bash'], ['sh']];

/**
 * Joins a browser WebSocket to an exec in the container: what the browser sends (keystrokes, as
 * text or binary frames) is the shell's stdin, what the shell writes goes back as binary frames.
 * The socket closes when the shell exits (1000, reason "exit <code>") or fails (1011, the reason).
 */
export async function bridgeTerminal(
  socket: BrowserSocket,
  client: ClusterClient,
  target: { namespace: string; pod: string; container?: string },
): Promise<void> {
  let stdin: PassThrough | undefined;
  let session: ExecSession | undefined;
  let hungUp = false;
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (socket.readyState === OPEN) socket.send(chunk);
      callback();
    },
  });
  socket.on('message', (data) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    stdin?.write(bytes);
  });
  socket.on('close', () => {
    hungUp = true;
    stdin?.end();
    session?.close();
  });
  // A close reason is at most 123 bytes.
  const reason = (text: string) => Buffer.from(text).subarray(0, 120).toString('utf8');
  try {
    const result = await client.exec(
      target.namespace,
      target.pod,
      target.container,
      SHELLS,
      () => {
        stdin?.end();
        stdin = new PassThrough();
        if (hungUp) stdin.end();
        return { stdin, stdout };
      },
      (s) => {
        session = s;
        if (hungUp) s.close();
      },
    );
    if (socket.readyState === OPEN) socket.close(1000, reason(`exit ${result.exitCode ?? ''}`.trim()));
  } catch (error) {
    if (socket.readyState === OPEN) socket.close(1011, reason((error as Error).message));
  }
}
