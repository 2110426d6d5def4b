import { useEffect, useRef, useState } from 'react';
import { href } from '../App.tsx';
import { get, isObject, type Json, rowsOf, type Scope, scoped, seg, str, streamUrl } from '../api.ts';
import { DataTable, RoleGate, Show, useLoad } from '../ui.tsx';

const podName = (r: Json) => str(r.name ?? r.pod);
const podNamespace = (r: Json) => str(r.namespace);

/** Pods cluster-wide with CPU and memory, the cluster's events, a pod's logs and live tails. */
export function PodsPage({ scope }: { scope: Scope }) {
  const pods = useLoad(async () => (await get(scoped(scope, '/pods'))).data, 'pods');
  const events = useLoad(async () => (await get(scoped(scope, '/events'))).data, 'events');
  const [view, setView] = useState<{ kind: 'logs' | 'tail'; namespace: string; pod: string } | null>(null);
  return (
    <section>
      <h2>Pods</h2>
      <Show loaded={pods}>
        {(data) => (
          <DataTable
            label="Pods"
            rows={rowsOf(data, 'pods', 'items')}
            columns={[
              'namespace',
              'name',
              'phase',
              'ready',
              'restarts',
              'node',
              'cpu_millicores',
              'memory_bytes',
              'created_at',
            ]}
            empty="No pods."
            actions={(r) => (
              <>
                <button
                  type="button"
                  onClick={() => setView({ kind: 'logs', namespace: podNamespace(r), pod: podName(r) })}
                >
                  Logs
                </button>
                <button
                  type="button"
                  onClick={() => setView({ kind: 'tail', namespace: podNamespace(r), pod: podName(r) })}
                >
                  Tail
                </button>
                <RoleGate needs="admin">
                  <a href={href(scope, 'terminal', podNamespace(r), podName(r))}>Terminal</a>
                </RoleGate>
              </>
            )}
          />
        )}
      </Show>
      {view?.kind === 'logs' && <PodLogs key={`${view.namespace}/${view.pod}`} scope={scope} {...view} />}
      {view?.kind === 'tail' && (
        <Tail
          key={`${view.namespace}/${view.pod}`}
          title={`Tail of ${view.namespace}/${view.pod}`}
          url={streamUrl(scoped(scope, `/pods${seg(view.namespace, view.pod)}/logs/tail`))}
          onClose={() => setView(null)}
        />
      )}
      <NamespaceTail scope={scope} />
      <h2>Events</h2>
      <Show loaded={events}>
        {(data) => <DataTable label="Events" rows={rowsOf(data, 'events', 'items')} empty="No events." />}
      </Show>
    </section>
  );
}

function PodLogs({ scope, namespace, pod }: { scope: Scope; namespace: string; pod: string }) {
  const path = scoped(scope, `/pods${seg(namespace, pod)}/logs`);
  const logs = useLoad(async () => (await get(path)).data, path);
  return (
    <>
      <h3>
        Logs of {namespace}/{pod}
      </h3>
      <Show loaded={logs}>
        {(data) => (
          <pre className="log" data-testid="pod-logs">
            {linesOf(data).join('\n')}
          </pre>
        )}
      </Show>
    </>
  );
}

function linesOf(data: unknown): string[] {
  if (typeof data === 'string') return data.split('\n');
  if (Array.isArray(data)) return data.map(lineText);
  if (isObject(data)) {
    if (typeof data.logs === 'string') return data.logs.split('\n');
    if (typeof data.text === 'string') return data.text.split('\n');
    if (Array.isArray(data.lines)) return data.lines.map(lineText);
  }
  return [JSON.stringify(data)];
}

function lineText(v: unknown): string {
  if (!isObject(v)) return str(v);
  const text = str(v.line ?? v.message ?? v.text ?? v.data ?? '');
  return v.pod ? `[${str(v.pod)}] ${text}` : text;
}

/** A namespace tail: every pod matching the selector, lines tagged by pod, pods followed as they come and go. */
function NamespaceTail({ scope }: { scope: Scope }) {
  const [namespace, setNamespace] = useState('default');
  const [selector, setSelector] = useState('');
  const [url, setUrl] = useState<string | null>(null);
  return (
    <>
      <h3>Namespace tail</h3>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setUrl(streamUrl(scoped(scope, `/namespaces${seg(namespace)}/logs/tail`), { selector }));
        }}
      >
        <label>
          Namespace <input aria-label="Namespace" value={namespace} onChange={(e) => setNamespace(e.target.value)} />
        </label>
        <label>
          Selector{' '}
          <input
            aria-label="Selector"
            value={selector}
            title="A label selector, e.g. app=web"
            onChange={(e) => setSelector(e.target.value)}
          />
        </label>
        <button type="submit">Follow</button>
      </form>
      {url && <Tail key={url} title={`Tail of ${namespace} ${selector}`} url={url} onClose={() => setUrl(null)} />}
    </>
  );
}

const MAX_LINES = 2000;

/**
 * Server-sent events; the token rides in the URL (EventSource cannot set headers). The console
 * sends `line` ({pod, container, line}), `pod` (a pod came or went), `error` and `end`; at `end`
 * the source is closed, or EventSource would reconnect and replay.
 */
export function Tail({ url, title, onClose }: { url: string; title: string; onClose: () => void }) {
  const [lines, setLines] = useState<string[]>([]);
  const [state, setState] = useState<'connecting' | 'open' | 'ended' | 'closed'>('connecting');
  const pre = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const source = new EventSource(url);
    const add = (text: string) => setLines((l) => [...l.slice(-(MAX_LINES - 1)), text]);
    const parsed = (e: MessageEvent<string>): Json => {
      try {
        const v: unknown = JSON.parse(e.data);
        return isObject(v) ? v : { line: str(v) };
      } catch {
        return { line: e.data };
      }
    };
    const onLine = (e: MessageEvent<string>) => add(lineText(parsed(e)));
    source.onopen = () => setState('open');
    source.onmessage = onLine;
    source.addEventListener('line', onLine as EventListener);
    source.addEventListener('pod', ((e: MessageEvent<string>) => {
      const p = parsed(e);
      add(`-- ${str(p.pod)}${p.container ? `/${str(p.container)}` : ''} ${str(p.state)}`);
    }) as EventListener);
    source.addEventListener('end', () => {
      source.close();
      setState('ended');
    });
    source.addEventListener('error', ((e: Event) => {
      // A server-sent `error` event carries data; the EventSource's own error (connection) does not.
      if (e instanceof MessageEvent && typeof e.data === 'string') {
        const p = parsed(e as MessageEvent<string>);
        add(`!! ${str(p.code)} ${str(p.message)}`);
        return;
      }
      setState(source.readyState === EventSource.CLOSED ? 'closed' : 'connecting');
    }) as EventListener);
    return () => source.close();
  }, [url]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll on every new line
  useEffect(() => {
    pre.current?.scrollTo(0, pre.current.scrollHeight);
  }, [lines]);
  return (
    <>
      <h3>
        {title} <span className="muted">({state})</span>{' '}
        <button type="button" onClick={onClose}>
          Stop
        </button>
      </h3>
      <pre className="log" data-testid="tail" ref={pre}>
        {lines.join('\n')}
      </pre>
    </>
  );
}
