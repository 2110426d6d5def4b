/**
 * A minimal browser for sign-in tests: keeps cookies per host name and path as a browser does,
 * and follows redirects by hand, so a test sees every hop and stops where the client's callback
 * (redirect_uri) would receive control.
 */
export class Browser {
  /** host name, path and name → value; ports share cookies, as in a browser. */
  private readonly jar = new Map<string, { host: string; path: string; name: string; value: string }>();
  /** Every URL this browser requested, in order. */
  readonly visited: string[] = [];

  private cookieHeader(url: URL) {
    return [...this.jar.values()]
      .filter((c) => c.host === url.hostname && pathMatches(url.pathname, c.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(res: Response, url: URL) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attributes] = c.split(';');
      const i = pair?.indexOf('=') ?? -1;
      if (!pair || i < 0) continue;
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const pathAttr = attributes.map((a) => a.trim()).find((a) => /^path=/i.test(a));
      const path = pathAttr ? pathAttr.slice(5) : url.pathname.replace(/\/[^/]*$/, '') || '/';
      const key = `${url.hostname}|${path}|${name}`;
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.jar.delete(key);
      else this.jar.set(key, { host: url.hostname, path, name, value });
    }
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    this.visited.push(url);
    const target = new URL(url);
    const res = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(target),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    this.store(res, target);
    return res;
  }

  /**
   * GET (or POST a form to) `url` and follow redirects until one leaves for `stopAt` (the client's
   * redirect URI) or a page answers. Returns the callback URL reached, or the final page.
   */
  async navigate(
    url: string,
    stopAt: string,
    form?: Record<string, string>,
  ): Promise<{ callback?: URL; status: number; html?: string; url: string }> {
    let res = await this.request(url, form ? { form } : {});
    let current = url;
    for (let hops = 0; hops < 20; hops++) {
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        const next = new URL(location, current).toString();
        if (next.startsWith(stopAt)) return { callback: new URL(next), status: res.status, url: next };
        current = next;
        res = await this.request(next);
        continue;
      }
      return { status: res.status, html: await res.text(), url: current };
    }
    throw new Error('too many redirects');
  }
}

const pathMatches = (requestPath: string, cookiePath: string) =>
  requestPath === cookiePath ||
  (requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/'));

/** The value of a hidden input or form action in a page. */
export const formAction = (html: string, idOrAction: RegExp) => html.match(idOrAction)?.[1];
export const inputValue = (html: string, name: string) =>
  html.match(new RegExp(`name="${name}"[^>]*value="([^"]*)"`))?.[1] ??
  html.match(new RegExp(`value="([^"]*)"[^>]*name="${name}"`))?.[1];
