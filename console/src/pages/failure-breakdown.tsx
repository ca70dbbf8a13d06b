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
  const classes = byName(data.failures.by_class);
  const failed = classes.reduce((sum, [, n]) => sum + n, 0);
  const none = <p class="muted">No failed call in this range.</p>;
  const share = 'Share of failures';
  return (
    <>
      <h2>Failures by class</h2>
      {failed === 0 ? (
        none
      ) : (
        <CountTable testId="failures-table" columns={['Failure class', 'Calls', share]} rows={classes} total={failed} />
      )}
      <h2>Failures by SIP code</h2>
      {failed === 0 ? (
        none
      ) : (
        <CountTable
          testId="failure-codes-table"
          columns={['SIP code', 'Calls', share]}
          rows={byCode(data.failures.by_sip_code)}
          total={failed}
        />
      )}
    </>
  );
}

/**
 * INVITEs the SIP gateway refused (the rejection log, docs/sip-gateway.md): never calls, so counted
 * apart from the failures, by reason and by the SIP code the gateway answered, the largest first.
 */
export function Rejections({ data }: { data: Overview }) {
  const { total } = data.rejections;
  const share = 'Share of rejections';
  return (
    <>
      <h2>Rejected INVITEs</h2>
      {total === 0 ? (
        <p class="muted">No INVITE refused in this range.</p>
      ) : (
        <>
          <p class="muted" data-testid="rejections-total">
            {fmtInt(total)} {total === 1 ? 'INVITE' : 'INVITEs'} refused by the SIP gateway (never calls: not counted
            with them)
          </p>
          <CountTable
            testId="rejection-reasons-table"
            columns={['Reason', 'INVITEs', share]}
            rows={byName(data.rejections.by_reason)}
            total={total}
          />
          <CountTable
            testId="rejection-codes-table"
            columns={['SIP code answered', 'INVITEs', share]}
            rows={byCode(data.rejections.by_sip_code)}
            total={total}
          />
        </>
      )}
    </>
  );
}

/** A count per name, the largest first (ties by name), names with none left out. */
function byName(counts: Record<string, number> | undefined): [string, number][] {
  return Object.entries(counts ?? {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, n]) => [name.replace(/_/g, ' '), n]);
}

/** The API's by_sip_code entries (already in order), each code with its reason phrase. */
function byCode(counts: Schemas['SipCodeCountDto'][]): [string, number][] {
  return counts.map(({ sip_code, count }) => [sip_code === null ? 'none reported' : sipCodeLabel(sip_code), count]);
}

function CountTable(props: { testId: string; columns: string[]; rows: [string, number][]; total: number }) {
  return (
    <table data-testid={props.testId}>
      <TableHead columns={props.columns} />
      <tbody>
        {props.rows.map(([label, n]) => (
          <tr>
            <td>{label}</td>
            <td>{fmtInt(n)}</td>
            <td>{fmtPct((100 * n) / props.total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
