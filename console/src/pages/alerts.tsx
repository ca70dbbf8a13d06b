import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { Field } from '../components/field';
import { inputValue, useFormErrors } from '../components/form-errors';
import { TableHead } from '../components/table-head';
import { FormError, Loading, Problem } from '../components/problem';
import { fmtTime } from '../format';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { useTrunkNames } from '../use-trunk-names';

type Rule = Schemas['CreateAlertRuleRequestDto'];
const METRICS: Rule['metric'][] = [
  'p95_latency_ms',
  'p99_latency_ms',
  'avg_ai_latency_ms',
  'success_rate',
  'avg_packet_loss_percent',
];
const COMPARISONS: Rule['comparison'][] = ['gt', 'gte', 'lt', 'lte'];
const FIELDS = ['name', 'metric', 'comparison', 'threshold', 'window_minutes', 'trunk_id'];

/** Latency and quality alert rules, their state, and the form to add one. */
export function AlertsPage() {
  const rules = useLoad((signal) => call(api().GET('/alert-rules', { signal, params: { query: { limit: 100 } } })), []);
  const trunks = useLoad((signal) => call(api().GET('/trunks', { signal, params: { query: { limit: 100 } } })), []);
  // Names for the trunk column: from the list the form's trunk picker loads anyway, the rest (a
  // trunk past its first 100) by id, once per distinct trunk (use-trunk-names.ts).
  const trunkNames = useTrunkNames(
    (rules.data?.alert_rules ?? []).flatMap((r) => (r.trunk_id ? [r.trunk_id] : [])),
    trunks.data?.trunks,
    !trunks.loading,
  );
  const { problem, run } = useAction(rules.reload);
  const remove = (id: string) => run(() => call(api().DELETE('/alert-rules/{id}', { params: { path: { id } } })));
  return (
    <section>
      <h1>Alert rules</h1>
      <NewRule trunks={trunks.data?.trunks ?? []} onCreated={rules.reload} />
      {problem && <Problem error={problem} what="delete this rule" />}
      {rules.error && <Problem error={rules.error} what="list alert rules" />}
      {!rules.data && !rules.error && <Loading />}
      {rules.data && (
        <table data-testid="rules-table">
          <TableHead columns={['Name', 'Condition', 'Window', 'Trunk', 'State', 'Last value', 'Since', 'Actions']} />
          <tbody>
            {rules.data.alert_rules.map((r) => (
              <tr>
                <td>{r.name ?? '–'}</td>
                <td>
                  {r.metric} {r.comparison} {r.threshold}
                </td>
                <td>{r.window_minutes} min</td>
                <td>{r.trunk_id ? (trunkNames.get(r.trunk_id) ?? r.trunk_id) : 'all'}</td>
                <td>
                  <span class={`badge ${r.state === 'triggered' ? 'failed' : 'active'}`}>{r.state}</span>
                </td>
                <td>{r.last_value ?? '–'}</td>
                <td>{fmtTime(r.state === 'triggered' ? r.triggered_at : r.resolved_at)}</td>
                <td>
                  <button type="button" class="danger" onClick={() => remove(r.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rules.data?.alert_rules.length === 0 && <p class="muted">No alert rules yet: add one above.</p>}
    </section>
  );
}

function NewRule({ trunks, onCreated }: { trunks: Schemas['TrunkListItemDto'][]; onCreated: () => void }) {
  const [values, setValues] = useState({
    name: '',
    metric: METRICS[0],
    comparison: 'gt',
    threshold: '1500',
    window_minutes: '15',
    trunk_id: '',
  });
  const errors = useFormErrors(FIELDS);
  const set = (name: keyof typeof values) => (event: Event) => setValues({ ...values, [name]: inputValue(event) });
  const submit = async (event: Event) => {
    event.preventDefault();
    errors.clear();
    try {
      const body: Rule = {
        metric: values.metric as Rule['metric'],
        comparison: values.comparison as Rule['comparison'],
        threshold: Number(values.threshold),
        window_minutes: Number(values.window_minutes),
        ...(values.name ? { name: values.name } : {}),
        ...(values.trunk_id ? { trunk_id: values.trunk_id } : {}),
      };
      await call(api().POST('/alert-rules', { body }));
      onCreated();
    } catch (error) {
      errors.show(error);
    }
  };
  return (
    <form class="panel form grid" onSubmit={submit}>
      <h2>Add a rule</h2>
      <FormError message={errors.general} />
      <Field id="rule-name" label="Name" error={errors.byField.name}>
        <input id="rule-name" value={values.name} onInput={set('name')} />
      </Field>
      <Field id="rule-metric" label="Metric" error={errors.byField.metric}>
        <select id="rule-metric" value={values.metric} onChange={set('metric')}>
          {METRICS.map((m) => (
            <option value={m}>{m}</option>
          ))}
        </select>
      </Field>
      <Field id="rule-comparison" label="Comparison" error={errors.byField.comparison}>
        <select id="rule-comparison" value={values.comparison} onChange={set('comparison')}>
          {COMPARISONS.map((c) => (
            <option value={c}>{c}</option>
          ))}
        </select>
      </Field>
      <Field id="rule-threshold" label="Threshold" error={errors.byField.threshold}>
        <input id="rule-threshold" type="number" value={values.threshold} onInput={set('threshold')} />
      </Field>
      <Field id="rule-window" label="Window (minutes)" error={errors.byField.window_minutes}>
        <input id="rule-window" type="number" value={values.window_minutes} onInput={set('window_minutes')} />
      </Field>
      <Field id="rule-trunk" label="Trunk" error={errors.byField.trunk_id}>
        <select id="rule-trunk" value={values.trunk_id} onChange={set('trunk_id')}>
          <option value="">every trunk</option>
          {trunks.map((t) => (
            <option value={t.id}>{t.name}</option>
          ))}
        </select>
      </Field>
      <button type="submit">Add rule</button>
    </form>
  );
}
