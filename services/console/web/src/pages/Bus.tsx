import { useState } from 'react';
import { get, isObject, type Json, rowsOf, type Scope, scoped, seg, str } from '../api.ts';
import { DataTable, ErrorPanel, JsonView, Show, useLoad } from '../ui.tsx';

/** Message-bus stats (streams and their consumers) and a peek: a direct get, never a receive. */
export function BusPage({ scope }: { scope: Scope }) {
  const bus = useLoad(async () => (await get<unknown>(scoped(scope, '/bus'))).data, 'bus');
  const [stream, setStream] = useState('');
  const [seq, setSeq] = useState('1');
  const [peek, setPeek] = useState<{ data?: unknown; error?: unknown } | null>(null);
  const doPeek = async (s = stream, n = seq) => {
    try {
      setPeek({ data: (await get(scoped(scope, `/bus${seg(s)}/messages${seg(n)}`))).data });
    } catch (error) {
      setPeek({ error });
    }
  };
  return (
    <section>
      <h2>Message bus</h2>
      <Show loaded={bus}>
        {(data) => {
          const streams = rowsOf(data, 'streams');
          // Consumers sit beside the streams (each naming its stream), or inside each stream.
          const consumers: Json[] =
            isObject(data) && Array.isArray(data.consumers)
              ? rowsOf(data.consumers)
              : streams.flatMap((s) => rowsOf(s.consumers ?? []).map((c) => ({ stream: s.name, ...c })));
          return (
            <>
              {isObject(data) && data.kind !== undefined && (
                <p className="muted" data-testid="bus-kind">
                  Bus: {str(data.kind)}
                </p>
              )}
              <h3>Streams</h3>
              <DataTable
                label="Streams"
                rows={streams.map(({ consumers: _c, ...rest }) => flattenOne(rest))}
                empty="No streams."
                actions={(r) =>
                  Number(r.messages) > 0 ? (
                    <button
                      type="button"
                      onClick={() => {
                        const name = str(r.name);
                        const last = str(r.last_seq || '1');
                        setStream(name);
                        setSeq(last);
                        void doPeek(name, last);
                      }}
                    >
                      Peek last
                    </button>
                  ) : null
                }
              />
              <h3>Consumers</h3>
              <DataTable label="Consumers" rows={consumers.map(flattenOne)} empty="No consumers." />
            </>
          );
        }}
      </Show>
      <h3>Peek</h3>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          void doPeek();
        }}
      >
        <label>
          Stream <input aria-label="Stream" value={stream} onChange={(e) => setStream(e.target.value)} />
        </label>
        <label>
          Sequence <input aria-label="Sequence" value={seq} onChange={(e) => setSeq(e.target.value)} size={8} />
        </label>
        <button type="submit" disabled={!stream}>
          Peek
        </button>
      </form>
      {peek?.error !== undefined && <ErrorPanel error={peek.error} />}
      {peek?.data !== undefined && (
        <div data-testid="peeked">
          <JsonView value={peek.data} />
        </div>
      )}
    </section>
  );
}

/** One level of nested objects as dotted columns; arrays joined. */
function flattenOne(row: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(row)) {
    if (isObject(v)) for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = v2;
    else if (Array.isArray(v)) out[k] = v.map(str).join(', ');
    else out[k] = v;
  }
  return out;
}
