import type { Schemas } from '../api';
import { TableHead } from '../components/table-head';
import { fmtInt, fmtPct } from '../format';

type Overview = Schemas['AnalyticsOverviewDto'];

/*
 * What went wrong, from one overview answer (no request of their own): the overview draws them for
 * the account, the trunk page for its trunk (the answer it asks with trunk_id for its latency).
 */

/** Failed calls by failure class (docs/sip-gateway.md's taxonomy) and by final SIP code, the largest first. */
export function Failures({ data }: { data: Overview }) {
  const classes = Object.entries(data.failures.by_class ?? {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const failed = classes.reduce((sum, [, n]) => sum + n, 0);
  return (
    <>
      <h2>Failures by class</h2>
      {failed === 0 ? (
        <p class="muted">No failed call in this range.</p>
      ) : (
        <table data-testid="failures-table">
          <TableHead columns={['Failure class', 'Calls', 'Share of failures']} />
          <tbody>
            {classes.map(([name, n]) => (
              <tr>
                <td>{name.replace(/_/g, ' ')}</td>
                <td>{fmtInt(n)}</td>
                <td>{fmtPct((100 * n) / failed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Failures by SIP code</h2>
      {failed === 0 ? (
        <p class="muted">No failed call in this range.</p>
      ) : (
        <table data-testid="failure-codes-table">
          <TableHead columns={['SIP code', 'Calls', 'Share of failures']} />
          <tbody>
            {data.failures.by_sip_code.map(({ sip_code, count }) => (
              <tr>
                <td>{sip_code === null ? 'none reported' : sipCodeLabel(sip_code)}</td>
                <td>{fmtInt(count)}</td>
                <td>{fmtPct((100 * count) / failed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/**
 * INVITEs the SIP gateway refused (the rejection log, docs/sip-gateway.md): never calls, so counted
 * apart from the failures, by reason and by the SIP code the gateway answered, the largest first.
 */
export function Rejections({ data }: { data: Overview }) {
  const { total, by_reason, by_sip_code } = data.rejections;
  const reasons = Object.entries(by_reason ?? {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return (
    <>
      <h2>Rejected INVITEs</h2>
      {total === 0 ? (
        <p class="muted">No INVITE refused in this range.</p>
      ) : (
        <>
          <p class="muted" data-testid="rejections-total">
            {fmtInt(total)} {total === 1 ? 'INVITE' : 'INVITEs'} refused by the SIP gateway (not calls: not in the
            figures above)
          </p>
          <table data-testid="rejection-reasons-table">
            <TableHead columns={['Reason', 'INVITEs', 'Share of rejections']} />
            <tbody>
              {reasons.map(([name, n]) => (
                <tr>
                  <td>{name.replace(/_/g, ' ')}</td>
                  <td>{fmtInt(n)}</td>
                  <td>{fmtPct((100 * n) / total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table data-testid="rejection-codes-table">
            <TableHead columns={['SIP code answered', 'INVITEs', 'Share of rejections']} />
            <tbody>
              {by_sip_code.map(({ sip_code, count }) => (
                <tr>
                  <td>{sip_code === null ? 'none reported' : sipCodeLabel(sip_code)}</td>
                  <td>{fmtInt(count)}</td>
                  <td>{fmtPct((100 * count) / total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}

/** The reason phrases of RFC 3261 §21 for the final codes a failed INVITE gets most often. */
const SIP_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  410: 'Gone',
  480: 'Temporarily Unavailable',
  484: 'Address Incomplete',
  486: 'Busy Here',
  487: 'Request Terminated',
  488: 'Not Acceptable Here',
  500: 'Server Internal Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Server Time-out',
  600: 'Busy Everywhere',
  603: 'Decline',
  604: 'Does Not Exist Anywhere',
  606: 'Not Acceptable',
};

function sipCodeLabel(code: number): string {
  const phrase = SIP_PHRASES[code];
  return phrase ? `${code} ${phrase}` : String(code);
}
