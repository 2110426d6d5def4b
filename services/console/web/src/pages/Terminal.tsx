import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { href } from '../App.tsx';
import { type Scope, scoped, seg, streamUrl } from '../api.ts';
import { RoleGate, useConsole } from '../ui.tsx';

/**
 * A container terminal (admin only): xterm over the exec WebSocket, the token in its URL.
 * Keystrokes go out as text frames; what the container writes comes back as text or binary.
 */
export function TerminalPage({ scope, namespace, pod }: { scope: Scope; namespace: string; pod: string }) {
  const { role } = useConsole();
  return (
    <section>
      <h2>
        Terminal: {namespace}/{pod}
      </h2>
      <p>
        <a href={href(scope, 'pods')}>Back to pods</a>
      </p>
      <RoleGate needs="admin">
        <Xterm url={streamUrl(scoped(scope, `/pods${seg(namespace, pod)}/exec`), {}, 'ws')} />
      </RoleGate>
      {role !== null && role !== 'admin' && <p className="muted">The terminal needs the admin role.</p>}
    </section>
  );
}

function Xterm({ url }: { url: string }) {
  const el = useRef<HTMLDivElement>(null);
  const [state, setState] = useState('connecting');
  useEffect(() => {
    if (!el.current) return;
    const term = new Terminal({ convertEol: true, fontSize: 13, cursorBlink: true });
    term.open(el.current);
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => {
      setState('open');
      term.focus();
    };
    ws.onmessage = (e: MessageEvent<string | ArrayBuffer>) =>
      term.write(typeof e.data === 'string' ? e.data : new Uint8Array(e.data));
    ws.onclose = (e) => setState(`closed${e.reason ? `: ${e.reason}` : ''}`);
    const input = term.onData((d) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(d);
    });
    return () => {
      input.dispose();
      ws.close();
      term.dispose();
    };
  }, [url]);
  return (
    <>
      <p className="muted" data-testid="terminal-state">
        {state}
      </p>
      <div className="terminal" ref={el} data-testid="terminal" />
    </>
  );
}
