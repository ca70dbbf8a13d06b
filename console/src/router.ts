import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (#/trunks/conn_…?as_of=…): one entry URL for the server, and nothing of the route
 * ever reaches a request line or a Referer.
 */
export interface Route {
  path: string;
  parts: string[];
  query: URLSearchParams;
}

export function parseRoute(hash = location.hash): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [path, search = ''] = raw.split('?', 2);
  return { path, parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

export function href(path: string, query: Record<string, string | null | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const search = params.toString();
  return `#${path}${search ? `?${search}` : ''}`;
}

export function navigate(path: string, query: Record<string, string | null | undefined> = {}): void {
  location.hash = href(path, query);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parseRoute);
  useEffect(() => {
    const update = () => setRoute(parseRoute());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
