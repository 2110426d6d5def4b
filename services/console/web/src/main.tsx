import '@xterm/xterm/css/xterm.css';
import './style.css';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { finishSignIn, loadSignIn, type SignIn } from './auth.ts';

/** One code exchange per page load, however often the effect runs (a code is good once). */
let exchange: Promise<void> | null = null;
const finishing = (cfg: Extract<SignIn, { mode: 'identity' }>) => {
  exchange ??= finishSignIn(cfg);
  return exchange;
};

/** Reads how to sign in, finishes a sign-in when back at /callback, then the app. */
function Boot() {
  const [signIn, setSignIn] = useState<SignIn | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void (async () => {
      const cfg = await loadSignIn();
      if (cfg.mode === 'identity' && window.location.pathname === '/callback') await finishing(cfg);
      setSignIn(cfg);
    })().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  if (error)
    return (
      <main className="sign-in">
        <h1>Operations console</h1>
        <p role="alert">{error}</p>
        <a href="/">Start again</a>
      </main>
    );
  if (!signIn) return null;
  return <App signIn={signIn} />;
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <Boot />
    </StrictMode>,
  );
