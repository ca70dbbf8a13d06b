import type { ComponentChildren } from 'preact';
import { signOut } from '../session';

const PAGES: [string, string][] = [
  ['/overview', 'Overview'],
  ['/calls', 'Calls'],
  ['/trunks', 'Trunks'],
  ['/webhooks', 'Webhooks'],
  ['/alerts', 'Alert rules'],
  ['/api-keys', 'API keys'],
];

export function Layout({ path, children }: { path: string; children: ComponentChildren }) {
  const section = `/${path.split('/')[1] ?? ''}`;
  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="#/overview">
          Trunkline
        </a>
        <nav aria-label="Console">
          {PAGES.map(([to, label]) => (
            <a href={`#${to}`} aria-current={section === to ? 'page' : undefined}>
              {label}
            </a>
          ))}
          <a href="/docs">API reference</a>
        </nav>
        <button type="button" class="secondary sign-out" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main id="main">{children}</main>
    </div>
  );
}
