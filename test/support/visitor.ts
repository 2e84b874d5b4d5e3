/** The hidden inputs of a page's forms, by name: what a browser would post back. */
export function hiddenFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]!] = match[2]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  }
  return fields;
}

/** A cookie jar of one: what a browser would send back. */
export class Visitor {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  /** The value of one cookie the browser holds. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** A cookie put in the browser by someone else (a sibling subdomain, a script, a shared computer). */
  plant(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** A page request; `form` posts it like a browser (URLSearchParams for repeated fields such as checkboxes). */
  async request(path: string, init: { method?: string; form?: Record<string, string> | URLSearchParams; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...init.headers, cookie: this.cookieHeader() };
    let body: string | undefined;
    if (init.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(new URL(path, this.baseUrl), { method: init.method ?? 'GET', headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (value === '') this.cookies.delete(name!);
      else this.cookies.set(name!, value!);
    }
    return response;
  }

  async csrf(path: string): Promise<string> {
    return hiddenFields(await (await this.request(path)).text())._csrf!;
  }

  async signIn(email: string, password: string, next = '/'): Promise<Response> {
    const csrf = await this.csrf('/signin');
    return this.request('/signin', { method: 'POST', form: { _csrf: csrf, email, password, next } });
  }
}

