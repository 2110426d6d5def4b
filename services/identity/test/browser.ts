/**
 * A minimal browser for sign-in tests: keeps cookies per host and follows redirects by hand, so a
 * test sees every hop and stops where the client's callback (redirect_uri) would receive control.
 */
export class Browser {
  private readonly jar = new Map<string, string>();
  /** Every URL this browser requested, in order. */
  readonly visited: string[] = [];

  private cookieHeader() {
    return [...this.jar.entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair?.indexOf('=') ?? -1;
      if (!pair || i < 0) continue;
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    this.visited.push(url);
    const res = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: this.cookieHeader(),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    this.store(res);
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

/** The value of a hidden input or form action in a page. */
export const formAction = (html: string, idOrAction: RegExp) => html.match(idOrAction)?.[1];
export const inputValue = (html: string, name: string) =>
  html.match(new RegExp(`name="${name}"[^>]*value="([^"]*)"`))?.[1] ??
  html.match(new RegExp(`value="([^"]*)"[^>]*name="${name}"`))?.[1];
