import { useEffect, useState } from 'preact/hooks';
import { Layout } from './components/layout';
import { ApiKeysPage } from './pages/api-keys';
import { AlertsPage } from './pages/alerts';
import { CallDetailPage } from './pages/call-detail';
import { CallsPage } from './pages/calls';
import { OverviewPage } from './pages/overview';
import { SignIn } from './pages/sign-in';
import { TrunkDetailPage } from './pages/trunk-detail';
import { TrunksPage } from './pages/trunks';
import { WebhookDeliveriesPage, WebhooksPage } from './pages/webhooks';
import { useRoute } from './router';
import { currentSession, onSessionChange, type Session } from './session';

export function App() {
  const [session, setSession] = useState<Session | null>(currentSession);
  const route = useRoute();
  useEffect(() => onSessionChange(setSession), []);
  useEffect(() => {
    document.title = session ? `${titleOf(route.parts[0])} · Trunkline` : 'Sign in · Trunkline';
  }, [session, route.path]);
  if (!session) return <SignIn />;
  const [section, id] = route.parts;
  return <Layout path={route.path}>{page(section ?? session.home.slice(1), id, route.query, session)}</Layout>;
}

function page(section: string, id: string | undefined, query: URLSearchParams, session: Session) {
  switch (section) {
    case 'overview':
      return <OverviewPage query={query} />;
    case 'calls':
      return id ? <CallDetailPage id={id} /> : <CallsPage query={query} />;
    case 'trunks':
      return id ? <TrunkDetailPage id={id} query={query} /> : <TrunksPage />;
    case 'webhooks':
      return id ? <WebhookDeliveriesPage id={id} /> : <WebhooksPage />;
    case 'alerts':
      return <AlertsPage />;
    case 'api-keys':
      return <ApiKeysPage />;
    default:
      return page(session.home.slice(1), undefined, query, session);
  }
}

function titleOf(section: string | undefined): string {
  const titles: Record<string, string> = {
    overview: 'Overview',
    calls: 'Calls',
    trunks: 'Trunks',
    webhooks: 'Webhooks',
    alerts: 'Alert rules',
    'api-keys': 'API keys',
  };
  return titles[section ?? ''] ?? 'Console';
}
